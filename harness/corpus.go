package harness

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mergecheck/mergecheck/internal/atomicfile"
	"github.com/mergecheck/mergecheck/model"
)

// A CorpusReplay reports one corpus file replayed before generation.
type CorpusReplay struct {
	File    string
	Rule    model.RuleID
	Outcome string // held, failed, fault, unreadable, skipped, departed (the engine departs from the rules here: another finding)
	Detail  string
}

// corpusName is the file a counterexample for rule is saved as: the rule
// and the first twelve hex digits of the scenario's content hash.
func corpusName(rule model.RuleID, s *model.Scenario) string {
	return fmt.Sprintf("%s-%s.json", rule, hash(s)[:12])
}

// corpusRule reports whether name (a path or a base name) is the name of
// a corpus file, RULE-HASH.json with twelve hex digits of hash, and the
// rule it was saved for.
func corpusRule(name string) (model.RuleID, bool) {
	base, ok := strings.CutSuffix(filepath.Base(name), ".json")
	i := strings.LastIndexByte(base, '-')
	if !ok || i <= 0 || len(base)-i-1 != 12 {
		return "", false
	}
	for _, c := range base[i+1:] {
		if !strings.ContainsRune("0123456789abcdef", c) {
			return "", false
		}
	}
	return model.RuleID(base[:i]), true
}

// ruleOfCorpusFile reads the rule from a corpus file name.
func ruleOfCorpusFile(name string) model.RuleID {
	base := strings.TrimSuffix(filepath.Base(name), ".json")
	if i := strings.LastIndexByte(base, '-'); i > 0 {
		return model.RuleID(base[:i])
	}
	return ""
}

// saveCounterexample writes s into the corpus directory atomically (a
// temporary file, then a rename), so a crash or kill leaves either the
// whole file or none. It returns the path.
func saveCounterexample(dir string, rule model.RuleID, s *model.Scenario) (string, error) {
	data, err := model.Encode(s)
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, corpusName(rule, s))
	if old, err := os.ReadFile(path); err == nil && string(old) == string(data) {
		return path, nil
	}
	if err := atomicfile.Write(path, data); err != nil {
		return "", fmt.Errorf("corpus: %w", err)
	}
	return path, nil
}

// corpusFiles lists the corpus files in dir, sorted; a missing directory
// is an empty corpus. A file there that is not a regular one (a named
// pipe, which reading would hang on) is never opened: it is in odd, with
// what it is.
func corpusFiles(dir string) (files []string, odd []CorpusReplay, err error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("corpus %s: %w", dir, err)
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if why := entryNotRegular(path, e); why != "" {
			odd = append(odd, CorpusReplay{File: path, Rule: ruleOfCorpusFile(path), Outcome: "skipped", Detail: why + ", not a regular file: not opened"})
			continue
		}
		files = append(files, path)
	}
	slices.Sort(files)
	return files, odd, nil
}

// replayCorpus plays every corpus file for the selected properties before
// anything is generated. A file that still breaks its rule settles that
// rule's verdict; an unreadable file is reported by name and skipped.
// Files for rules of other shards are left to those shards.
func replayCorpus(judges map[model.RuleID]*judge, elsewhere map[model.RuleID]bool, dir string) ([]CorpusReplay, map[model.RuleID]*Counterexample, error) {
	files, odd, err := corpusFiles(dir)
	if err != nil {
		return nil, nil, err
	}
	log := odd
	found := map[model.RuleID]*Counterexample{}
	for _, f := range files {
		rule := ruleOfCorpusFile(f)
		j := judges[rule]
		if j == nil {
			if !elsewhere[rule] {
				log = append(log, CorpusReplay{File: f, Rule: rule, Outcome: "skipped", Detail: "no property for this rule was run"})
			}
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			log = append(log, CorpusReplay{File: f, Rule: rule, Outcome: "unreadable", Detail: err.Error()})
			continue
		}
		s, err := model.DecodeScenario(data)
		if err != nil {
			log = append(log, CorpusReplay{File: f, Rule: rule, Outcome: "unreadable", Detail: err.Error()})
			continue
		}
		out := j.play(s)
		switch {
		case out.problem != nil:
			log = append(log, CorpusReplay{File: f, Rule: rule, Outcome: "failed", Detail: out.problem.Error()})
			if found[rule] == nil {
				found[rule] = &Counterexample{Rule: rule, Problem: out.problem.Error(), Class: out.class, Found: out.found, Scenario: s, Got: out.got, Want: out.want, File: f}
			}
		case out.fault != nil:
			log = append(log, CorpusReplay{File: f, Rule: rule, Outcome: "fault", Detail: out.fault.Error()})
		case out.refused != nil:
			log = append(log, CorpusReplay{File: f, Rule: rule, Outcome: "skipped", Detail: out.refused.Error()})
		case out.stopped:
			log = append(log, CorpusReplay{File: f, Rule: rule, Outcome: "skipped", Detail: "the run was stopped before it was played"})
		case out.excluded != "":
			// Not held: the engine went another way, which another rule's
			// check names (its own search finds it).
			log = append(log, CorpusReplay{File: f, Rule: rule, Outcome: "departed", Detail: fmt.Sprintf("the engine's trace departs from the rules' in a way %s's check names: that rule's finding", out.excluded)})
		case out.departed != nil:
			log = append(log, CorpusReplay{File: f, Rule: rule, Outcome: "departed", Detail: "an unexplained departure, where no rule's check looks: " + out.departed.Error()})
		default:
			log = append(log, CorpusReplay{File: f, Rule: rule, Outcome: "held"})
		}
	}
	return log, found, nil
}
