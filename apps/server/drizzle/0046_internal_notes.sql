-- Internal notes of the SOC (issue 41): a comment marked internal is read only by staff through the
-- analyst API. The default is a constant, so adding the column does not rewrite the table.
ALTER TABLE "comments" ADD COLUMN "internal" boolean DEFAULT false NOT NULL;