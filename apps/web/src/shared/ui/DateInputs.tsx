import { DatePicker } from 'antd';
import type { GetProps } from 'antd';
import { useLanguage } from '../hooks/useLanguage.ts';
import { pickerFormats } from '../lib/pickerFormats.ts';

type DatePickerProps = GetProps<typeof DatePicker>;
type RangePickerProps = GetProps<typeof DatePicker.RangePicker>;

/**
 * The app's date picker: antd's, showing the date as the interface writes it in the current
 * language and reading typed dates in every format of `pickerFormats`. Use it (and
 * `DateRangeInput`) instead of antd's DatePicker, so that every picker agrees.
 */
export function DateInput(props: DatePickerProps) {
  const formats = pickerFormats(useLanguage());
  return <DatePicker format={props.showTime ? formats.dateTime : formats.date} {...props} />;
}

/** The app's range picker (see `DateInput`). */
export function DateRangeInput(props: RangePickerProps) {
  const formats = pickerFormats(useLanguage());
  return <DatePicker.RangePicker format={props.showTime ? formats.dateTime : formats.date} {...props} />;
}
