// The shapes of personal data exports (CONTRACT section 24).
import { z } from '@hono/zod-openapi';
import { DATA_EXPORT_STATUSES, type DataExportRow } from '../../db/schema';

export const DataExportSchema = z
  .object({
    id: z.number().int(),
    status: z.enum(DATA_EXPORT_STATUSES).openapi({ description: 'PENDING while the archive is built (within minutes); READY once it can be downloaded; FAILED: ask again' }),
    createdAt: z.string().openapi({ format: 'date-time' }),
    readyAt: z.string().nullable().openapi({ format: 'date-time' }),
    expiresAt: z.string().nullable().openapi({ format: 'date-time', description: 'After this instant the archive is deleted and the export answers 404' }),
  })
  .openapi('DataExport');

export const toDataExportDto = (row: DataExportRow): z.infer<typeof DataExportSchema> => ({
  id: row.id,
  status: row.status,
  createdAt: row.createdAt,
  readyAt: row.readyAt,
  expiresAt: row.expiresAt,
});

/** The archive: one key per kind of data (docs/PRIVACY.md); its rows as the tables hold them. */
export const DataExportArchiveSchema = z.record(z.string(), z.unknown()).openapi('DataExportArchive');
