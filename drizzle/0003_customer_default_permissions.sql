-- The default permission set every customer account holds (the commerce interface checks
-- ORDERS_REORDER on reorder). Editable later through the built-in `customer` role.
INSERT INTO "role_permissions" ("role_id", "permission")
SELECT "id", 'ORDERS_REORDER' FROM "roles" WHERE "name" = 'customer'
ON CONFLICT DO NOTHING;
