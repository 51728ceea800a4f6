package device

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestSuperblockMagic: without blkid, the superblock magic still names an ext4 file
// system (made by mkfs.ext4 in an image file), and nothing in a blank image.
func TestSuperblockMagic(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("mkfs.ext4"); err != nil {
		t.Skip("mkfs.ext4 is not installed")
	}
	dir := t.TempDir()
	blank, img := filepath.Join(dir, "blank.img"), filepath.Join(dir, "ext4.img")
	for _, p := range []string{blank, img} {
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(p, 16<<20); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("mkfs.ext4", "-q", "-F", img).CombinedOutput(); err != nil {
		t.Fatalf("mkfs.ext4: %v: %s", err, out)
	}
	if got := magicContents(img); got != "a file system (ext4)" {
		t.Errorf("ext4 image: %q", got)
	}
	if got := magicContents(blank); got != "" {
		t.Errorf("blank image: %q", got)
	}
}
