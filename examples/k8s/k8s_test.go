// Package k8s holds the Kubernetes examples (Indexed Jobs for a sharded load and
// run, and the merge) and the test that keeps them valid: every manifest decodes
// strictly into the Kubernetes API types, and the shard flags are wired to the
// completion index.
package k8s

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// decodeStrict decodes one manifest into its API type: an unknown or misspelt field
// (case included), a duplicate key or a wrong type is an error, as kubectl apply
// --validate=strict would make it.
func decodeStrict(data []byte) (any, error) {
	var head struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	if err := yaml.Unmarshal(data, &head); err != nil {
		return nil, err
	}
	var obj any
	switch head.APIVersion + " " + head.Kind {
	case "batch/v1 Job":
		obj = &batchv1.Job{}
	case "v1 ConfigMap":
		obj = &corev1.ConfigMap{}
	case "v1 PersistentVolumeClaim":
		obj = &corev1.PersistentVolumeClaim{}
	case "v1 Pod":
		obj = &corev1.Pod{}
	default:
		return nil, fmt.Errorf("unexpected apiVersion %q kind %q", head.APIVersion, head.Kind)
	}
	// Kubernetes' own decoder: field names match case-sensitively (encoding/json
	// would take restartpolicy for restartPolicy), unknown and repeated fields are
	// errors.
	js, err := yaml.YAMLToJSONStrict(data)
	if err != nil {
		return nil, err
	}
	strict, err := kjson.UnmarshalStrict(js, obj)
	if err != nil {
		return nil, err
	}
	if len(strict) > 0 {
		return nil, errors.Join(strict...)
	}
	return obj, nil
}

// manifests decodes every *.yaml of the folder, one object per file.
func manifests(t *testing.T) map[string]any {
	t.Helper()
	files, err := filepath.Glob("*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests: %v", err)
	}
	out := map[string]any{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(data, []byte("\n---")) {
			t.Errorf("%s: one object per file, so each can be applied on its own", f)
		}
		obj, err := decodeStrict(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[f] = obj
	}
	return out
}

func TestStrictDecodingRefusesUnknownFields(t *testing.T) {
	for _, bad := range []string{
		"apiVersion: batch/v1\nkind: Job\nspec:\n  completion: 3\n",                                    // misspelt
		"apiVersion: batch/v1\nkind: Job\nspec:\n  completions: three\n",                               // wrong type
		"apiVersion: v1\nkind: ConfigMap\ndata: {a: x}\ndata: {b: y}\n",                                // duplicate key
		"apiVersion: batch/v1\nkind: CronJobs\n",                                                       // unknown kind
		"apiVersion: batch/v1\nkind: Job\nspec:\n  template:\n    spec:\n      restartpolicy: Never\n", // case
	} {
		if _, err := decodeStrict([]byte(bad)); err == nil {
			t.Errorf("accepted:\n%s", bad)
		}
	}
}

func TestManifestsDecodeStrictly(t *testing.T) {
	m := manifests(t)
	for _, want := range []string{"load-job.yaml", "run-job.yaml", "merge-job.yaml", "run-config.yaml", "results-pvc.yaml", "results-pod.yaml"} {
		if _, ok := m[want]; !ok {
			t.Errorf("no %s", want)
		}
	}
}

func job(t *testing.T, m map[string]any, file string) (*batchv1.Job, *corev1.Container) {
	t.Helper()
	j, ok := m[file].(*batchv1.Job)
	if !ok {
		t.Fatalf("%s is not a Job", file)
	}
	if n := len(j.Spec.Template.Spec.Containers); n != 1 {
		t.Fatalf("%s: %d containers, want 1", file, n)
	}
	if p := j.Spec.Template.Spec.RestartPolicy; p != corev1.RestartPolicyNever {
		t.Errorf("%s: restartPolicy %q: a failed shard must fail its pod, not restart in place", file, p)
	}
	return j, &j.Spec.Template.Spec.Containers[0]
}

func envVar(c *corev1.Container, name string) *corev1.EnvVar {
	for i := range c.Env {
		if c.Env[i].Name == name {
			return &c.Env[i]
		}
	}
	return nil
}

// commandLine is the container's command and arguments as one string.
func commandLine(c *corev1.Container) string {
	return strings.Join(append(slices.Clone(c.Command), c.Args...), " ")
}

var shardFlag = regexp.MustCompile(`--shard[= ]\$\(JOB_COMPLETION_INDEX\)/(\d+)\b`)

// checkShardJob checks what makes a Job a sharded one and returns its N.
func checkShardJob(t *testing.T, m map[string]any, file, command string) (*batchv1.Job, *corev1.Container, int) {
	t.Helper()
	j, c := job(t, m, file)
	line := commandLine(c)
	if !strings.Contains(line, command) {
		t.Errorf("%s: does not run %q: %s", file, command, line)
	}
	found := shardFlag.FindAllStringSubmatch(line, -1)
	if len(found) != 1 {
		t.Fatalf("%s: want one --shard=$(JOB_COMPLETION_INDEX)/N, found %d in %s", file, len(found), line)
	}
	n, _ := strconv.Atoi(found[0][1])
	if j.Spec.CompletionMode == nil || *j.Spec.CompletionMode != batchv1.IndexedCompletion {
		t.Errorf("%s: completionMode is not Indexed: no completion index", file)
	}
	if j.Spec.Completions == nil || int(*j.Spec.Completions) != n || j.Spec.Parallelism == nil || int(*j.Spec.Parallelism) != n {
		t.Errorf("%s: --shard .../%d with completions %v and parallelism %v: all three must be N", file, n, j.Spec.Completions, j.Spec.Parallelism)
	}
	idx := envVar(c, "JOB_COMPLETION_INDEX")
	if idx == nil || idx.ValueFrom == nil || idx.ValueFrom.FieldRef == nil ||
		idx.ValueFrom.FieldRef.FieldPath != "metadata.annotations['batch.kubernetes.io/job-completion-index']" {
		t.Errorf("%s: JOB_COMPLETION_INDEX is not declared from the pod's completion-index annotation: %+v", file, idx)
	}
	db := envVar(c, "BROKERBENCH_DB")
	if db == nil || db.Value != "" || db.ValueFrom == nil || db.ValueFrom.SecretKeyRef == nil ||
		db.ValueFrom.SecretKeyRef.Name != "brokerbench-db" || db.ValueFrom.SecretKeyRef.Key != "dsn" {
		t.Errorf("%s: BROKERBENCH_DB must come from Secret brokerbench-db, key dsn: %+v", file, db)
	}
	if strings.Contains(line, "://") || strings.Contains(line, "--db") {
		t.Errorf("%s: a DSN on the command line: %s", file, line)
	}
	return j, c, n
}

func TestLoadJobShards(t *testing.T) {
	m := manifests(t)
	j, _, _ := checkShardJob(t, m, "load-job.yaml", "brokerbench load")
	if j.Spec.BackoffLimitPerIndex == nil {
		t.Error("load-job.yaml: a failed shard should be retried alone (backoffLimitPerIndex)")
	}
}

// mountFor returns the volume under which the container sees file.
func mountFor(t *testing.T, j *batchv1.Job, c *corev1.Container, file string) corev1.Volume {
	t.Helper()
	for _, vm := range c.VolumeMounts {
		if strings.HasPrefix(file, strings.TrimSuffix(vm.MountPath, "/")+"/") {
			for _, v := range j.Spec.Template.Spec.Volumes {
				if v.Name == vm.Name {
					return v
				}
			}
			t.Fatalf("mount %s names no volume", vm.Name)
		}
	}
	t.Fatalf("%s is on no mounted volume", file)
	return corev1.Volume{}
}

// flagValue is the value of --name=VALUE among args.
func flagValue(t *testing.T, args []string, name string) string {
	t.Helper()
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			return v
		}
	}
	t.Fatalf("no --%s=VALUE in %q", name, args)
	return ""
}

func TestRunJobShards(t *testing.T) {
	m := manifests(t)
	j, c, _ := checkShardJob(t, m, "run-job.yaml", "run")
	if len(c.Args) == 0 || c.Args[0] != "run" || len(c.Command) != 0 {
		t.Fatalf("run-job.yaml: want the image's entrypoint with args run ..., got %q %q", c.Command, c.Args)
	}
	if j.Spec.BackoffLimit == nil || *j.Spec.BackoffLimit != 0 {
		t.Error("run-job.yaml: a retried shard would start after the others; backoffLimit must be 0")
	}

	// The run's options: a file of the ConfigMap in run-config.yaml.
	cfg := flagValue(t, c.Args, "config")
	v := mountFor(t, j, c, cfg)
	cm, _ := m["run-config.yaml"].(*corev1.ConfigMap)
	if v.ConfigMap == nil || cm == nil || v.ConfigMap.Name != cm.Name {
		t.Fatalf("--config %s is not on the ConfigMap of run-config.yaml: %+v", cfg, v)
	}
	if _, ok := cm.Data[path.Base(cfg)]; !ok {
		t.Errorf("ConfigMap %s has no key %s for --config %s", cm.Name, path.Base(cfg), cfg)
	}

	// Every shard starts at the same instant, set in a ConfigMap of its own.
	if got := flagValue(t, c.Args, "start-at"); got != "$(START_AT)" {
		t.Errorf("--start-at=%s, want $(START_AT)", got)
	}
	start := envVar(c, "START_AT")
	if start == nil || start.ValueFrom == nil || start.ValueFrom.ConfigMapKeyRef == nil ||
		start.ValueFrom.ConfigMapKeyRef.Name != "brokerbench-start" || start.ValueFrom.ConfigMapKeyRef.Key != "start-at" {
		t.Errorf("START_AT must come from ConfigMap brokerbench-start, key start-at: %+v", start)
	}

	// Each shard its own result file, on the results volume.
	out := flagValue(t, c.Args, "out")
	if !strings.Contains(out, "$(JOB_COMPLETION_INDEX)") {
		t.Errorf("--out=%s: the shards would overwrite one file", out)
	}
	pvc, _ := m["results-pvc.yaml"].(*corev1.PersistentVolumeClaim)
	if v := mountFor(t, j, c, out); v.PersistentVolumeClaim == nil || pvc == nil || v.PersistentVolumeClaim.ClaimName != pvc.Name {
		t.Errorf("--out=%s is not on the claim of results-pvc.yaml: %+v", out, v)
	}
	if pvc != nil && !slices.Contains(pvc.Spec.AccessModes, corev1.ReadWriteMany) {
		t.Errorf("results-pvc.yaml: shards on several nodes write at once; want ReadWriteMany, got %v", pvc.Spec.AccessModes)
	}
}

func TestMergeJobReadsTheRunJobsFiles(t *testing.T) {
	m := manifests(t)
	rj, rc, n := checkShardJob(t, m, "run-job.yaml", "run")
	mj, mc := job(t, m, "merge-job.yaml")
	if len(mc.Args) == 0 || mc.Args[0] != "merge" {
		t.Fatalf("merge-job.yaml: args %q do not run merge", mc.Args)
	}
	if mj.Spec.CompletionMode != nil && *mj.Spec.CompletionMode == batchv1.IndexedCompletion {
		t.Error("merge-job.yaml: the merge runs once, not per shard")
	}
	out := flagValue(t, rc.Args, "out")
	var want []string
	for i := 0; i < n; i++ {
		want = append(want, strings.ReplaceAll(out, "$(JOB_COMPLETION_INDEX)", strconv.Itoa(i)))
	}
	var inputs []string
	merged := ""
	for i := 1; i < len(mc.Args); i++ {
		switch a := mc.Args[i]; {
		case a == "-o" || a == "--out":
			if i+1 < len(mc.Args) {
				merged = mc.Args[i+1]
			}
			i++
		case strings.HasPrefix(a, "--out="):
			merged = strings.TrimPrefix(a, "--out=")
		default:
			inputs = append(inputs, a)
		}
	}
	if !slices.Equal(inputs, want) {
		t.Errorf("merge reads %q, want every shard's --out of run-job.yaml: %q", inputs, want)
	}
	if merged == "" || slices.Contains(want, merged) {
		t.Errorf("merge writes %q: want a file of its own", merged)
	}
	// The same claim, mounted where the run job wrote.
	rv, mv := mountFor(t, rj, rc, out), mountFor(t, mj, mc, want[0])
	if rv.PersistentVolumeClaim == nil || mv.PersistentVolumeClaim == nil || rv.PersistentVolumeClaim.ClaimName != mv.PersistentVolumeClaim.ClaimName {
		t.Errorf("merge reads volume %+v, the run wrote to %+v", mv, rv)
	}
	if v := mountFor(t, mj, mc, merged); v.Name != mv.Name {
		t.Errorf("merge writes %s to another volume than the shards' files", merged)
	}
	for _, vm := range mc.VolumeMounts {
		if vm.Name == mv.Name && vm.ReadOnly {
			t.Errorf("merge-job.yaml: %s is read-only; merge writes %s there", vm.MountPath, merged)
		}
	}
	if !strings.Contains(readme(t), "brokerbench-results:"+merged) {
		t.Errorf("README.md: no kubectl cp of %s", merged)
	}
}

func readme(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// The README's commands name what the manifests expect: the Secret, the start-time
// ConfigMap, and every manifest applied.
func TestReadmeCommands(t *testing.T) {
	text := readme(t)
	for _, want := range []string{
		"kubectl create secret generic brokerbench-db --from-literal=dsn=",
		"kubectl create configmap brokerbench-start --from-literal=start-at=",
		"kubectl wait --for=condition=complete job/brokerbench-load",
		"kubectl wait --for=condition=complete job/brokerbench-run",
		"brokerbench compare",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("README.md lacks %q", want)
		}
	}
	for f := range manifests(t) {
		if !strings.Contains(text, "kubectl apply -f examples/k8s/"+f) {
			t.Errorf("README.md never applies %s", f)
		}
	}
	// The one-liner's time must be RFC 3339 in UTC, as --start-at reads it.
	if !strings.Contains(text, "+%Y-%m-%dT%H:%M:%SZ") {
		t.Error("README.md: the start-at one-liner does not write RFC 3339 UTC")
	}
}
