import { theme } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

export type ImagePreviewProps = { src: string; alt: string };

/** An image fitted to the window; a click toggles its natural size when it is wider (product §B2). */
export function ImagePreview({ src, alt }: ImagePreviewProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const box = useRef<HTMLDivElement>(null);
  const [zoomable, setZoomable] = useState(false);
  const [zoomed, setZoomed] = useState(false);
  return (
    <div
      ref={box}
      style={{
        overflow: 'auto',
        maxWidth: '100%',
        background: token.colorFillQuaternary,
        borderRadius: token.borderRadius,
      }}
      data-testid="file-preview-image-box"
    >
      <img
        src={src}
        alt={alt}
        title={zoomable ? t(zoomed ? 'files.zoomOut' : 'files.zoomIn') : undefined}
        onLoad={(event) =>
          setZoomable(event.currentTarget.naturalWidth > (box.current?.clientWidth ?? window.innerWidth))
        }
        onClick={() => zoomable && setZoomed((z) => !z)}
        style={{
          display: 'block',
          maxWidth: zoomed ? 'none' : '100%',
          cursor: zoomable ? (zoomed ? 'zoom-out' : 'zoom-in') : 'default',
        }}
        data-testid="file-preview-image"
        data-zoomable={zoomable}
        data-zoomed={zoomed}
      />
    </div>
  );
}
