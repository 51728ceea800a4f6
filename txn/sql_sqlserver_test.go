package txn

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/schema"
)

// sqlserverFields lists every statement of a set as field path -> text, the Check
// struct included.
func sqlserverFields(st *Statements) ([]string, map[string]string) {
	texts := map[string]string{}
	var names []string
	var walk func(prefix string, v reflect.Value)
	walk = func(prefix string, v reflect.Value) {
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			switch v.Field(i).Kind() {
			case reflect.String:
				names = append(names, prefix+f.Name)
				texts[prefix+f.Name] = v.Field(i).String()
			case reflect.Struct:
				walk(prefix+f.Name+".", v.Field(i))
			}
		}
	}
	walk("", reflect.ValueOf(st).Elem())
	return names, texts
}

func TestSQLServerStatementsComplete(t *testing.T) {
	names, texts := sqlserverFields(SQLServerSQL())
	if len(names) < 100 {
		t.Fatalf("only %d statements found; the walk is broken", len(names))
	}
	for _, n := range names {
		if strings.TrimSpace(texts[n]) == "" {
			t.Errorf("%s is empty", n)
		}
	}
}

var (
	pgParam = regexp.MustCompile(`\$([0-9]+)`)
	msParam = regexp.MustCompile(`@p([0-9]+)\b`)
)

func paramSet(re *regexp.Regexp, s string) string {
	seen := map[string]bool{}
	for _, m := range re.FindAllStringSubmatch(s, -1) {
		seen[m[1]] = true
	}
	var out []string
	for k := range seen {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return len(out[i]) < len(out[j]) || len(out[i]) == len(out[j]) && out[i] < out[j] })
	return strings.Join(out, ",")
}

// TestSQLServerParametersMatchPostgres: the executor binds the same arguments for
// both dialects, so every statement must use exactly the same parameter numbers.
func TestSQLServerParametersMatchPostgres(t *testing.T) {
	_, pg := sqlserverFields(PostgresSQL())
	names, ms := sqlserverFields(SQLServerSQL())
	for _, n := range names {
		if a, b := paramSet(pgParam, pg[n]), paramSet(msParam, ms[n]); a != b {
			t.Errorf("%s: PostgreSQL binds {%s}, T-SQL uses {%s}", n, a, b)
		}
	}
}

// TestSQLServerStatementsAreTSQL rejects PostgreSQL-only syntax and unexpanded cast
// markers, and checks the forms the T-SQL set relies on.
func TestSQLServerStatementsAreTSQL(t *testing.T) {
	names, ms := sqlserverFields(SQLServerSQL())
	bad := regexp.MustCompile(`\$[0-9]|\bLIMIT\b|FOR UPDATE|nextval|INTERVAL|EXTRACT|::|\bMERGE\b|\bILIKE\b|string_agg|@p[0-9]+:|NOT t_is_cash|t_is_cash AND|\bOFFSET\b`)
	for _, n := range names {
		if m := bad.FindString(ms[n]); m != "" {
			t.Errorf("%s: %q is not T-SQL (or not wanted): %s", n, m, ms[n])
		}
	}
	st := SQLServerSQL()
	if st.TradeOrderNextTradeID != "SELECT NEXT VALUE FOR "+schema.TradeIDSequence {
		t.Errorf("trade ids: %s", st.TradeOrderNextTradeID)
	}
	for _, s := range []string{st.TradeResultTrade, st.TradeResultAccount, st.TradeResultLotsAsc, st.TradeResultLotsDesc} {
		if !strings.Contains(s, "WITH (UPDLOCK, ROWLOCK)") {
			t.Errorf("Trade-Result row lock missing: %s", s)
		}
	}
	// Every LIMIT of PostgreSQL became a TOP.
	_, pg := sqlserverFields(PostgresSQL())
	for _, n := range names {
		if strings.Count(pg[n], "LIMIT") != strings.Count(ms[n], "TOP ") {
			t.Errorf("%s: %d LIMIT in PostgreSQL, %d TOP in T-SQL", n, strings.Count(pg[n], "LIMIT"), strings.Count(ms[n], "TOP "))
		}
	}
	// Casts name the schema's types.
	if !strings.Contains(st.CustomerPositionByTaxID, "c_tax_id = CAST(@p1 AS VARCHAR(20))") ||
		!strings.Contains(st.TradeResultUpdateBroker, "b_comm_total + CAST(@p1 AS DECIMAL(12,2))") ||
		!strings.Contains(st.SecurityDetailDays, "dm_date >= CAST(@p2 AS DATE)") ||
		!strings.Contains(st.TradeLookupFirstTrade, "t_dts >= CAST(@p2 AS DATETIME2(3))") {
		t.Error("casts do not follow the schema's column types")
	}
}

// TestSQLServerStringParamsCast: the dialect binds strings as VARCHAR(MAX), which
// SQL Server will not use for an index seek unless cast; every comparison of a text
// column with a parameter must therefore go through CAST.
func TestSQLServerStringParamsCast(t *testing.T) {
	text := map[string]bool{}
	for _, tb := range append(schema.Tables(), schema.MetaTables()...) {
		for _, c := range tb.Columns {
			if c.Type.Kind == schema.Varchar {
				text[c.Name] = true
			}
		}
	}
	cmp := regexp.MustCompile(`([a-z0-9_]+) *(=|<>|<=|>=|<|>|IN \() *@p[0-9]+`)
	names, ms := sqlserverFields(SQLServerSQL())
	for _, n := range names {
		s := ms[n]
		if i := strings.Index(s, " SET "); i >= 0 && strings.HasPrefix(s, "UPDATE") {
			// Assignments convert to the column type by themselves; look at WHERE only.
			if w := strings.Index(s, "WHERE"); w >= 0 {
				s = s[w:]
			} else {
				s = ""
			}
		}
		for _, m := range cmp.FindAllStringSubmatch(s, -1) {
			if text[m[1]] {
				t.Errorf("%s: text column %s compared with an uncast parameter: %q", n, m[1], m[0])
			}
		}
	}
}

func sqlserverGoldenText() string {
	var b strings.Builder
	names, ms := sqlserverFields(SQLServerSQL())
	for _, n := range names {
		fmt.Fprintf(&b, "-- %s\n%s;\n\n", n, ms[n])
	}
	return b.String()
}

// TestSQLServerGolden pins every T-SQL statement; run with -update to rewrite.
func TestSQLServerGolden(t *testing.T) {
	got := sqlserverGoldenText()
	path := filepath.Join("testdata", "sqlserver.sql.golden")
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run Golden -update)", err)
	}
	if string(want) != got {
		t.Errorf("T-SQL statements differ from %s; run go test -run SQLServerGolden -update and review the diff", path)
	}
}
