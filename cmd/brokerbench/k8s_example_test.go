package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brokerbench/brokerbench/session"
	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"
)

// The Kubernetes examples (examples/k8s, a module of their own whose test checks the
// manifests against the Kubernetes API types) hand brokerbench a run configuration
// and command lines; these tests check those against the real commands.

const k8sExamples = "../../examples/k8s"

// k8sCommand returns brokerbench's subcommand name, attached to its root so the
// global flags are inherited as on the real command line.
func k8sCommand(t *testing.T, name string) *cobra.Command {
	t.Helper()
	root := newRootCommand(&globalOptions{Console: session.Console{Stdout: io.Discard, Stderr: io.Discard}})
	c, _, err := root.Find([]string{name})
	if err != nil || c.Name() != name {
		t.Fatalf("no %s command: %v", name, err)
	}
	return c
}

// manifestDoc reads one manifest as plain YAML.
func manifestDoc(t *testing.T, file string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(k8sExamples, file))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return doc
}

func TestK8sRunConfigIsARunConfig(t *testing.T) {
	data, _ := manifestDoc(t, "run-config.yaml")["data"].(map[string]any)
	runYAML, ok := data["run.yaml"].(string)
	if !ok {
		t.Fatal("run-config.yaml has no data.run.yaml")
	}
	path := filepath.Join(t.TempDir(), "run.yaml")
	if err := os.WriteFile(path, []byte(runYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	c := k8sCommand(t, "run")
	if err := applyConfigFile(c, path); err != nil {
		t.Fatalf("run --config with the example's run.yaml: %v", err)
	}
	if v := c.Flags().Lookup("users").Value.String(); v != "60:240:60" {
		t.Errorf("users = %q after the config", v)
	}
}

// podCommandLine is the Job's container command line, Kubernetes' $(VAR)
// references replaced as the kubelet would for shard 1.
func podCommandLine(t *testing.T, file string) []string {
	t.Helper()
	spec, _ := manifestDoc(t, file)["spec"].(map[string]any)
	tmpl, _ := spec["template"].(map[string]any)
	pod, _ := tmpl["spec"].(map[string]any)
	containers, _ := pod["containers"].([]any)
	if len(containers) != 1 {
		t.Fatalf("%s: %d containers", file, len(containers))
	}
	c, _ := containers[0].(map[string]any)
	var line []string
	for _, key := range []string{"command", "args"} {
		list, _ := c[key].([]any)
		for _, a := range list {
			s, _ := a.(string)
			s = strings.NewReplacer("$(JOB_COMPLETION_INDEX)", "1", "$(START_AT)", "2030-01-01T00:00:00Z").Replace(s)
			line = append(line, s)
		}
	}
	return line
}

// parseOrSkip parses args with the command's flags, skipping while the flags the
// examples need are not in this build.
func parseOrSkip(t *testing.T, c *cobra.Command, args []string, needs ...string) {
	t.Helper()
	for _, n := range needs {
		if c.Flags().Lookup(n) == nil {
			t.Skipf("%s --%s is not in this build yet", c.Name(), n)
		}
	}
	if err := c.ParseFlags(args); err != nil {
		t.Fatalf("%s %q: %v", c.Name(), args, err)
	}
	if c.Flags().NArg() != 0 {
		t.Errorf("%s takes no arguments, the example gives %q", c.Name(), c.Flags().Args())
	}
}

func TestK8sRunJobArgsAreRunFlags(t *testing.T) {
	line := podCommandLine(t, "run-job.yaml")
	if len(line) == 0 || line[0] != "run" {
		t.Fatalf("run-job.yaml runs %q", line)
	}
	c := k8sCommand(t, "run")
	parseOrSkip(t, c, line[1:], "shard", "start-at")
	if v := c.Flags().Lookup("shard").Value.String(); v != "1/3" {
		t.Errorf("--shard = %q for completion index 1", v)
	}
}

func TestK8sLoadJobArgsAreLoadFlags(t *testing.T) {
	var args []string
	for _, part := range podCommandLine(t, "load-job.yaml") {
		for _, l := range strings.Split(part, "\n") {
			if rest, ok := strings.CutPrefix(strings.TrimSpace(l), "exec brokerbench load "); ok {
				args = strings.Fields(strings.ReplaceAll(rest, "$resume", "--resume"))
			}
		}
	}
	if args == nil {
		t.Fatal("load-job.yaml: no line `exec brokerbench load ...`")
	}
	c := k8sCommand(t, "load")
	parseOrSkip(t, c, args, "shard", "resume")
	if v := c.Flags().Lookup("shard").Value.String(); v != "1/3" {
		t.Errorf("--shard = %q for completion index 1", v)
	}
}
