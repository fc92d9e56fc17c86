// drizzle-kit writes flat NNNN_name.sql migrations that wrangler and the tests both apply.
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: './src/db/schema/index.ts',
  out: './migrations',
});
