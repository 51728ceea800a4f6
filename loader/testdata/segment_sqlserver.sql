-- the load's progress table and statements (golden; regenerate with go test ./loader -run SegmentSQL -update)

CREATE TABLE bb_load_segment (
    table_name VARCHAR(40) NOT NULL,
    segment_no INT NOT NULL,
    row_count BIGINT NOT NULL,
    committed_at DATETIME2(3) NOT NULL,
    CONSTRAINT pk_bb_load_segment PRIMARY KEY CLUSTERED (table_name, segment_no)
);

INSERT INTO bb_load_segment (table_name, segment_no, row_count, committed_at) VALUES (@p1, @p2, @p3, CURRENT_TIMESTAMP);
SELECT table_name, segment_no, row_count FROM bb_load_segment;
DELETE FROM bb_load_segment WHERE table_name = @p1;
DECLARE @drop_fks nvarchar(max);
SELECT @drop_fks = STRING_AGG(CAST(N'ALTER TABLE ' + QUOTENAME(OBJECT_SCHEMA_NAME(parent_object_id)) + N'.'
    + QUOTENAME(OBJECT_NAME(parent_object_id)) + N' DROP CONSTRAINT ' + QUOTENAME(name) AS nvarchar(max)), N'; ')
    FROM sys.foreign_keys WHERE referenced_object_id = OBJECT_ID(N'bb_load_segment', N'U');
IF @drop_fks IS NOT NULL EXEC sys.sp_executesql @drop_fks;
DROP TABLE IF EXISTS bb_load_segment;
