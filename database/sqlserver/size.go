package sqlserver

import (
	"context"

	"github.com/brokerbench/brokerbench/database"
)

var _ database.Sizer = (*MSSQL)(nil)

// TableBytes reports a table's pages in use: the heap or clustered index with its
// LOB and row-overflow pages (PostgreSQL's heap with TOAST), and that plus the
// nonclustered indexes. It reads catalog views (sys.partitions,
// sys.allocation_units), which need no VIEW DATABASE STATE, unlike
// sys.dm_db_partition_stats. The name is cast because this engine binds strings as
// VARCHAR(MAX). A server without the views, or a login that may not read them,
// gives an error marked database.ErrUnavailable: the load then reports no sizes.
// partition_id equals hobt_id, so one join covers the
// in-row, row-overflow (container hobt_id) and LOB (container partition_id) units.
func (m *MSSQL) TableBytes(ctx context.Context, table string) (heap, total int64, err error) {
	err = m.DB.QueryRowContext(ctx, `SELECT
	COALESCE(SUM(CASE WHEN p.index_id IN (0, 1) THEN a.used_pages END), 0) * CAST(8192 AS bigint),
	COALESCE(SUM(a.used_pages), 0) * CAST(8192 AS bigint)
FROM sys.partitions AS p
JOIN sys.allocation_units AS a ON a.container_id = p.partition_id
WHERE p.object_id = OBJECT_ID(CAST(@p1 AS nvarchar(776)), 'U')`, mssqlArgs([]any{table})...).Scan(&heap, &total)
	return heap, total, unavailable(err, "sys.allocation_units")
}
