-- brokerbench SQL Server statements of resumable and sharded loads (golden; regenerate with -update)

-- take the load's application lock
DECLARE @r int;
EXEC @r = sp_getapplock @Resource = @p1, @LockMode = 'Exclusive', @LockOwner = 'Session', @LockTimeout = -1;
IF @r < 0 THROW 50000, 'sp_getapplock did not grant the lock', 1;

-- release it
EXEC sp_releaseapplock @Resource = @p1, @LockOwner = 'Session';

-- a run's mark on its database: the lock if free within 1 ms, which SQL Server and Babelfish both answer with -1 when another session holds it (0 or 1: taken)
DECLARE @r int;
EXEC @r = sp_getapplock @Resource = @p1, @LockMode = 'Exclusive', @LockOwner = 'Session', @LockTimeout = 1;
SELECT @r;

-- what a post-load already built
SELECT i.name, 1, CAST(1 - i.is_disabled AS bit) FROM sys.indexes i JOIN sys.tables t ON t.object_id = i.object_id
  WHERE i.name IS NOT NULL AND t.schema_id = SCHEMA_ID()
UNION ALL SELECT name, 2, CAST(1 AS bit) FROM sys.key_constraints WHERE schema_id = SCHEMA_ID()
UNION ALL SELECT name, 2, CAST(1 - is_not_trusted AS bit) FROM sys.foreign_keys WHERE schema_id = SCHEMA_ID()
UNION ALL SELECT name, 3, CAST(1 AS bit) FROM sys.sequences WHERE schema_id = SCHEMA_ID();

-- an unusable index before it is rebuilt
DROP INDEX IF EXISTS i_t_st_id ON trade;
