package study

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/brokerbench/brokerbench/results"
	"github.com/brokerbench/brokerbench/session"
)

// File is a study file as written (docs/study.md): the systems under test, the
// workloads each runs, how many times and in which order. Keys the file does not
// know are refused with their line: a typo must not silently run a default.
type File struct {
	Name string `yaml:"name"`
	// Out is the study folder (relative to the file's folder, as every path in it);
	// default: the study's name, in the current folder.
	Out      string            `yaml:"out"`
	Baseline string            `yaml:"baseline"`
	Order    string            `yaml:"order"`
	Seed     uint64            `yaml:"seed"`
	Repeats  Repeats           `yaml:"repeats"`
	Tags     map[string]string `yaml:"tags"`
	// Load is how each system's database is loaded before its first OLTP run:
	// load's flags by name (customers, trade-days, size, seed, workers).
	Load      map[string]any `yaml:"load"`
	Systems   []System       `yaml:"systems"`
	Workloads []Workload     `yaml:"workloads"`
}

// System is one system under test and where it lives.
type System struct {
	Name string            `yaml:"name"`
	Tags map[string]string `yaml:"tags"`
	// Dir is a folder on the storage under test: the profiles' test file and the
	// replay's target file go there, and, without PGData or DB, the managed
	// server's data folder (brokerbench-pgdata in it).
	Dir string `yaml:"dir"`
	// Device is a raw block device for the profiles and the replay instead of Dir;
	// they write to it only when AllowDeviceWrites names it.
	Device            string `yaml:"device"`
	AllowDeviceWrites string `yaml:"allow-device-writes"`
	// PGData is the managed PostgreSQL's data folder on this system's storage.
	PGData string `yaml:"pgdata"`
	// DB is a database URL instead of a managed server (a loaded database whose
	// storage IODevices names).
	DB        string   `yaml:"db"`
	IODevices []string `yaml:"io-device"`
	// IONodeExporter is the node_exporter URL of DB's host, for its disks, CPU,
	// memory and network (as run --io-node-exporter).
	IONodeExporter string `yaml:"io-node-exporter"`
	ServerMemory   string `yaml:"server-memory"`
	// FIO is the fio binary the profiles and the replay run on this system.
	FIO string `yaml:"fio"`
}

// Workload is one workload of the plan: a name and exactly one of run, disk or
// replay, each the options of the command of that name, by flag name.
type Workload struct {
	Name    string
	Kind    string
	Options map[string]any
	line    int
}

// UnmarshalYAML reads {name: N, run|disk|replay: {OPTIONS}}.
func (w *Workload) UnmarshalYAML(n *yaml.Node) error {
	w.line = n.Line
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: a workload is a map: name and one of run, disk, replay", n.Line)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "name":
			if err := v.Decode(&w.Name); err != nil {
				return fmt.Errorf("line %d: name: %v", v.Line, err)
			}
		case results.WorkloadRun, results.WorkloadDisk, results.WorkloadReplay:
			if w.Kind != "" {
				return fmt.Errorf("line %d: workload %q has both %s and %s: give one per workload", k.Line, w.Name, w.Kind, k.Value)
			}
			w.Kind = k.Value
			w.Options = map[string]any{}
			if v.Kind != yaml.ScalarNode || v.Tag != "!!null" {
				if err := v.Decode(&w.Options); err != nil {
					return fmt.Errorf("line %d: %s: its options are a map of %s's flags by name: %v", v.Line, k.Value, k.Value, err)
				}
			}
		default:
			return fmt.Errorf("line %d: workload key %q: want name and one of run, disk, replay", k.Line, k.Value)
		}
	}
	if w.Kind == "" {
		return fmt.Errorf("line %d: workload %q: say what it runs: run, disk or replay", n.Line, w.Name)
	}
	return nil
}

// Repeats is repeats: N, or a target precision with a budget:
// repeats: {target: 5%, figures: [tps_e, disk.iops], min: 3, max: 8}.
type Repeats struct {
	Count   int
	Target  float64 // percent; 0: Count repeats
	Figures []string
	Min     int
	Max     int
}

// UnmarshalYAML reads a number or a map.
func (r *Repeats) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		c, err := strconv.Atoi(n.Value)
		if err != nil {
			return fmt.Errorf("line %d: repeats %q: want a number of repeats, or {target: 5%%, figures: [...], max: N}", n.Line, n.Value)
		}
		r.Count = c
		return nil
	}
	var m struct {
		Target  string   `yaml:"target"`
		Figures []string `yaml:"figures"`
		Min     int      `yaml:"min"`
		Max     int      `yaml:"max"`
	}
	if err := n.Decode(&m); err != nil {
		return err
	}
	t, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(m.Target), "%")), 64)
	if err != nil || t <= 0 || t >= 100 {
		return fmt.Errorf("line %d: repeats target %q: want the detectable difference to reach, a percent above 0 (5%%)", n.Line, m.Target)
	}
	r.Target, r.Figures, r.Min, r.Max = t, m.Figures, m.Min, m.Max
	return nil
}

// maxStudyFileBytes bounds the study file: a few dozen lines, far above any real one.
const maxStudyFileBytes = 1 << 20

// ReadFile reads and decodes the study file at path; every error is a usage
// error naming the file and, when known, the line.
func ReadFile(path string) (*File, []byte, error) {
	data, err := session.ReadBounded("the study file", path, maxStudyFileBytes)
	if err != nil {
		return nil, nil, err
	}
	f, err := Parse(data)
	if err != nil {
		return nil, nil, session.Usagef("%s: %s", path, session.OneLine(err.Error()))
	}
	return f, data, nil
}

// Parse decodes a study file's text, refusing keys it does not know.
func Parse(data []byte) (*File, error) {
	var f File
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("empty study file")
		}
		return nil, cleanYAMLError(err)
	}
	return &f, nil
}

// cannotUnmarshal is yaml's type error, "cannot unmarshal !!str `abc` into uint64":
// a user reads what belongs there, not the program's Go types.
var cannotUnmarshal = regexp.MustCompile("cannot unmarshal !!(\\w+)( `[^`]*`)? into (\\S+)")

var unknownField = regexp.MustCompile(`field (\S+) not found in type [\w.\[\]*]+`)

func cleanYAMLError(err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	msg = strings.ReplaceAll(msg, "unmarshal errors:\n  ", "")
	msg = strings.Join(strings.Fields(strings.ReplaceAll(msg, "\n", " ; ")), " ")
	msg = strings.ReplaceAll(msg, " ; ", "; ")
	msg = unknownField.ReplaceAllString(msg, `unknown key "$1"`)
	msg = cannotUnmarshal.ReplaceAllStringFunc(msg, func(m string) string {
		sub := cannotUnmarshal.FindStringSubmatch(m)
		return fmt.Sprintf("want %s here, not %s%s", goTypeInWords(sub[3]), yamlKind[sub[1]], sub[2])
	})
	return errors.New(msg)
}

// yamlKind names yaml's tags in words.
var yamlKind = map[string]string{"str": "text", "int": "a number", "float": "a number", "bool": "true or false",
	"seq": "a list", "map": "a map", "null": "nothing", "timestamp": "a time"}

// goTypeInWords says what a Go type takes in a YAML file.
func goTypeInWords(t string) string {
	switch {
	case strings.HasPrefix(t, "[]"):
		return "a list"
	case strings.HasPrefix(t, "map[") || strings.Contains(t, "."):
		return "a map"
	case strings.HasPrefix(t, "int") || strings.HasPrefix(t, "uint") || strings.HasPrefix(t, "float"):
		return "a number"
	case t == "bool":
		return "true or false"
	}
	return "text"
}
