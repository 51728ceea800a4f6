// Package compare sets runs side by side: steps matched by users, each figure's
// change with its 95 % interval and verdict (better, worse, noise, or none and why),
// what differs between the systems, the regime, bottleneck, settling and drift
// warnings, and --fail-if gates (ParseGate, CheckGates), for load runs and storage
// profiles alike. It renders nothing: results/report writes a Comparison.
package compare
