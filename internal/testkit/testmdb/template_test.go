package testmdb

import (
	"context"
	"os"
	"testing"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/database/mysql"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

// TestFromTemplate: the template is built once; each copy has its rows, its indexes
// and foreign keys (an orphan is refused), and its sequence at the template's next
// value; a copy changed leaves the next copy as the template was.
func TestFromTemplate(t *testing.T) {
	ctx := context.Background()
	builds := 0
	build := func(ctx context.Context, dsn string) error {
		builds++
		db, err := database.Open(ctx, dsn, database.Options{MaxConns: 1})
		if err != nil {
			return err
		}
		defer db.Close()
		for _, q := range []string{
			"CREATE TABLE parent (id INT PRIMARY KEY, v VARCHAR(10) NOT NULL) ENGINE=InnoDB",
			"CREATE TABLE child (id INT PRIMARY KEY, p INT NOT NULL, KEY child_p (p), FOREIGN KEY (p) REFERENCES parent (id)) ENGINE=InnoDB",
			"CREATE SEQUENCE ids START WITH 100",
			"INSERT INTO parent SELECT seq, CONCAT('v', seq) FROM seq_1_to_1000",
			"INSERT INTO child SELECT seq, seq FROM seq_1_to_1000",
		} {
			if _, err := db.Exec(ctx, q); err != nil {
				return err
			}
		}
		return nil
	}
	first := Open(t, FromTemplate(t, "template_test", build), database.Options{MaxConns: 1})
	for _, q := range []string{"DELETE FROM child WHERE id > 10", "UPDATE parent SET v = 'changed'", "SELECT NEXTVAL(ids)"} {
		if _, err := first.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	second := Open(t, FromTemplate(t, "template_test", build), database.Options{MaxConns: 1})
	if builds != 1 {
		t.Errorf("the template was built %d times, want once", builds)
	}
	var children, changed, next int
	if err := second.QueryRow(ctx, "SELECT COUNT(*) FROM child FORCE INDEX (child_p) WHERE p > 0").Scan(&children); err != nil {
		t.Fatal(err)
	}
	if err := second.QueryRow(ctx, "SELECT COUNT(*) FROM parent WHERE v = 'changed'").Scan(&changed); err != nil {
		t.Fatal(err)
	}
	if err := second.QueryRow(ctx, "SELECT NEXTVAL(ids)").Scan(&next); err != nil {
		t.Fatal(err)
	}
	if children != 1000 || changed != 0 || next != 100 {
		t.Errorf("the second copy: %d children through the index, %d parents changed, next id %d; want 1000, 0, 100", children, changed, next)
	}
	if _, err := second.Exec(ctx, "INSERT INTO child VALUES (5000, 5000)"); mysql.ErrorNumber(err) != 1452 {
		t.Errorf("an orphan child: %v, want error 1452 (the copy keeps its foreign key)", err)
	}
}
