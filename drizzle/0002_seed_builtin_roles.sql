-- The two built-in roles: superadmin (holds every permission, computed from the code) and
-- customer (the default permission set of every customer account).
INSERT INTO "roles" ("name", "description", "is_built_in")
VALUES
  ('superadmin', 'Every permission, always', true),
  ('customer', 'Permissions every customer account holds', true)
ON CONFLICT ("name") DO NOTHING;
