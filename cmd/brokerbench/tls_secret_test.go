package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/url"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/brokerbench/brokerbench/database"
	"github.com/brokerbench/brokerbench/internal/pgmanaged"
)

// testCA is a certificate authority made for one test.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	pem  []byte
}

func newTestCA(t *testing.T, name string) *testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	return &testCA{cert: cert, key: key, pem: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}
}

// serverCert issues a certificate for 127.0.0.1 and localhost: what verify-full
// checks the host against.
func (ca *testCA) serverCert(t *testing.T) (certPEM, keyPEM []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder})
}

// TestSecretTLSVerifyFull: TLS options in the DSN reach the driver. A throwaway
// managed cluster serves TLS with a certificate from a CA made here; sslmode=
// verify-full with that CA connects over TLS, and with another CA fails with one
// clear line, exit 1, and no password.
func TestSecretTLSVerifyFull(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c, err := pgmanaged.Start(ctx, pgmanaged.Options{})
	if err != nil {
		t.Skipf("no managed PostgreSQL here: %v", err)
	}
	t.Cleanup(func() { _ = c.Stop() })

	ca, other := newTestCA(t, "brokerbench test CA"), newTestCA(t, "some other CA")
	crt, key := ca.serverCert(t)
	// The server reads its key only if the server's user owns it and nobody else can.
	owner := -1
	if os.Geteuid() == 0 {
		if u, err := user.Lookup("postgres"); err == nil {
			owner, _ = strconv.Atoi(u.Uid)
		}
	}
	for name, data := range map[string][]byte{"server.crt": crt, "server.key": key} {
		p := filepath.Join(c.DataDir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		if owner >= 0 {
			if err := os.Chown(p, owner, -1); err != nil {
				t.Fatal(err)
			}
		}
	}
	admin, err := database.Open(ctx, c.URL("postgres"), database.Options{MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	// ssl takes effect on reload (the server keeps running).
	for _, stmt := range []string{"ALTER SYSTEM SET ssl = on", "SELECT pg_reload_conf()",
		"CREATE ROLE bbsecret LOGIN SUPERUSER PASSWORD '" + strings.ReplaceAll(secretPW, "'", "''") + "'"} {
		if _, err := admin.Exec(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	var ssl string
	for deadline := time.Now().Add(10 * time.Second); ssl != "on" && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if err := admin.QueryRow(ctx, "SHOW ssl").Scan(&ssl); err != nil {
			t.Fatal(err)
		}
	}
	if ssl != "on" {
		log, _ := os.ReadFile(filepath.Join(c.Dir, "server.log"))
		t.Fatalf("the server did not turn TLS on:\n%s", log)
	}

	dir := t.TempDir()
	caFile, otherFile := filepath.Join(dir, "ca.pem"), filepath.Join(dir, "other-ca.pem")
	if err := os.WriteFile(caFile, ca.pem, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(otherFile, other.pem, 0o644); err != nil {
		t.Fatal(err)
	}
	dsnWith := func(rootCert string) string {
		u, _ := url.Parse(c.URL("postgres"))
		u.User = url.UserPassword("bbsecret", secretPW)
		u.RawQuery = "sslmode=verify-full&sslrootcert=" + url.QueryEscape(rootCert)
		return u.String()
	}

	db, err := database.Open(ctx, dsnWith(caFile), database.Options{MaxConns: 1, AppName: "brokerbench tls test"})
	if err != nil {
		t.Fatalf("verify-full with the server's CA: %v", err)
	}
	var overTLS bool
	err = db.QueryRow(ctx, "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()").Scan(&overTLS)
	db.Close()
	if err != nil || !overTLS {
		t.Fatalf("the connection is not TLS: %v %v", overTLS, err)
	}

	// Through the command line: the good CA gets past the connection (the empty
	// database is then not loaded); the wrong one stops at it.
	code, out, errb := runMain("check", "--db", dsnWith(caFile))
	low := strings.ToLower(errb)
	if strings.Contains(low, "certificate") || strings.Contains(low, "tls") || strings.Contains(low, "connect to") {
		t.Errorf("check with the right CA did not get past the connection: exit %d %s", code, errb)
	}
	for _, s := range []string{out, errb} {
		if strings.Contains(s, secretMarker) {
			t.Errorf("the password shows: %s", s)
		}
	}
	code, out, errb = runMain("check", "--db", dsnWith(otherFile))
	t.Logf("wrong CA: exit %d: %s", code, strings.TrimSpace(errb))
	if code != exitRuntime {
		t.Errorf("check with the wrong CA: exit %d, want 1", code)
	}
	oneErrorLine(t, errb, "brokerbench: ", "127.0.0.1", "certificate")
	if strings.Contains(out+errb, secretMarker) {
		t.Errorf("the password shows: %s %s", out, errb)
	}
}
