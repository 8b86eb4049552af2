-- Loaded by start.sh into the PostgreSQL database FerretDB stores its data in. For every index
-- FerretDB creates on `_jsonb -> 'field'` (a B-tree, which FerretDB's `@>` filters cannot use),
-- creates a GIN index on the same expression (which they use), in the same transaction.
CREATE OR REPLACE FUNCTION jpgw_gin_beside_ferretdb_index() RETURNS event_trigger
LANGUAGE plpgsql AS $$
DECLARE
  c record;
  f text;
  t record;
BEGIN
  FOR c IN SELECT objid FROM pg_event_trigger_ddl_commands()
           WHERE command_tag = 'CREATE INDEX' AND object_type = 'index'
  LOOP
    SELECT n.nspname AS schema, tc.relname AS tablename, pg_get_indexdef(c.objid) AS def, am.amname
      INTO t
      FROM pg_index i
      JOIN pg_class ic ON ic.oid = i.indexrelid
      JOIN pg_am am ON am.oid = ic.relam
      JOIN pg_class tc ON tc.oid = i.indrelid
      JOIN pg_namespace n ON n.oid = tc.relnamespace
     WHERE i.indexrelid = c.objid;
    -- The GIN indexes made here fire this trigger too: they are skipped, as is FerretDB's own
    -- metadata.
    CONTINUE WHEN t.amname <> 'btree' OR t.tablename LIKE '\_ferretdb%';
    FOR f IN SELECT DISTINCT m[1] FROM regexp_matches(t.def, '_jsonb -> ''([A-Za-z0-9_.]+)''', 'g') AS m
    LOOP
      EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %I.%I USING gin ((_jsonb -> %L))',
        left(t.tablename || '_' || f, 58) || '_gin', t.schema, t.tablename, f);
    END LOOP;
  END LOOP;
END
$$;
CREATE EVENT TRIGGER jpgw_gin_beside_ferretdb_index ON ddl_command_end
  WHEN TAG IN ('CREATE INDEX') EXECUTE FUNCTION jpgw_gin_beside_ferretdb_index();
