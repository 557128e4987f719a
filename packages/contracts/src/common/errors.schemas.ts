import { z } from 'zod';

/**
 * Validation error in the DRF shape (design §4): each field maps to its messages;
 * errors that belong to no single field go under `non_field_errors`.
 */
export const FieldErrorsSchema = z.record(z.string(), z.array(z.string()));
export type FieldErrors = z.infer<typeof FieldErrorsSchema>;

/** 401/403/404/413/429/5xx answers carry a single human-readable `detail`. */
export const DetailErrorSchema = z.object({ detail: z.string() });
export type DetailError = z.infer<typeof DetailErrorSchema>;

/** Plain acknowledgement of an action. */
export const DetailSchema = z.object({ detail: z.string() });
