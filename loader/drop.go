package loader

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/schema"
)

// ErrNotLoaded is returned by a drop in a database without brokerbench's load
// marker: whatever tables it holds, brokerbench did not load them.
var ErrNotLoaded = errors.New("holds no brokerbench load (no marker); it drops only what it loaded")

// ErrDependents is returned by a drop when objects that are not brokerbench's depend
// on its tables or sequence: the drop never cascades into them.
var ErrDependents = errors.New("objects that are not brokerbench's depend on its tables")

// errNoDropper is returned for a database whose DDL cannot name its objects by schema.
var errNoDropper = errors.New("cannot drop brokerbench's objects by schema on this database")

// droppedTables are brokerbench's tables in the order a drop removes them: every
// table before those it references.
func droppedTables() []schema.Table {
	all := append(append(schema.Tables(), schema.MetaTables()...), segmentTable(), runHolderTable())
	out := make([]schema.Table, 0, len(all))
	for i := len(all) - 1; i >= 0; i-- {
		out = append(out, all[i])
	}
	return out
}

// DroppedNames are the names of everything a drop removes: the tables and the
// trade-id sequence.
func DroppedNames() []string {
	var names []string
	for _, t := range droppedTables() {
		names = append(names, t.Name)
	}
	return append(names, schema.TradeIDSequence)
}

// PlanDrop checks that db holds a brokerbench load and that nothing else depends on
// it, and returns the schema its marker lives in, where the drop names every object.
// It refuses with ErrNotLoaded without the marker, and with ErrDependents listing the
// objects of others that depend on brokerbench's.
func PlanDrop(ctx context.Context, db database.DB) (string, error) {
	ddl, err := database.DDLOf(db)
	if err != nil {
		return "", err
	}
	sd, ok := ddl.(database.SchemaDropper)
	if !ok {
		return "", errNoDropper
	}
	eng, err := database.Of(db)
	if err != nil {
		return "", err
	}
	schemas, err := column(ctx, db, eng.TablesSQL("table_schema", "table_name = '"+schema.LoadMarkerTable+"'"))
	if err != nil {
		return "", fmt.Errorf("look for a brokerbench load in %s: %w", db.Target(), err)
	}
	switch len(schemas) {
	case 0:
		return "", fmt.Errorf("%s %w", db.Target(), ErrNotLoaded)
	case 1:
	default:
		return "", fmt.Errorf("%s holds brokerbench load markers in the schemas %s: brokerbench cannot tell which load to drop", db.Target(), strings.Join(schemas, ", "))
	}
	deps, err := column(ctx, db, sd.DependentsSQL(schemas[0], DroppedNames()))
	if err != nil {
		return "", fmt.Errorf("look for objects depending on brokerbench's tables in %s: %w", db.Target(), err)
	}
	if len(deps) > 0 {
		return "", fmt.Errorf("%w in %s, and brokerbench drops only what it created, never cascading: %s; drop or change them first",
			ErrDependents, db.Target(), strings.Join(deps, "; "))
	}
	return schemas[0], nil
}

// Drop removes what brokerbench loaded in db (PlanDrop's checks first): the
// workload's tables, brokerbench's own and the trade-id sequence, each named in the
// marker's schema. It neither cascades nor drops through the search path.
func Drop(ctx context.Context, db database.DB) error {
	sch, err := PlanDrop(ctx, db)
	if err != nil {
		return err
	}
	return dropIn(ctx, db, sch)
}

func dropIn(ctx context.Context, db database.DB, sch string) error {
	ddl, err := database.DDLOf(db)
	if err != nil {
		return err
	}
	sd, ok := ddl.(database.SchemaDropper)
	if !ok {
		return errNoDropper
	}
	for _, t := range droppedTables() {
		if _, err := db.Exec(ctx, sd.DropTableIn(sch, t)); err != nil {
			return fmt.Errorf("drop table %s.%s: %w", sch, t.Name, err)
		}
	}
	if _, err := db.Exec(ctx, sd.DropSequenceIn(sch, schema.TradeIDSequence)); err != nil {
		return fmt.Errorf("drop sequence %s.%s: %w", sch, schema.TradeIDSequence, err)
	}
	return nil
}

// column runs q and returns its one text column.
func column(ctx context.Context, db database.DB, q string) ([]string, error) {
	rows, err := db.Query(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}
