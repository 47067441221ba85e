// Package rules is the one home of the Comprehensive Rules numbers that
// mergecheck cites, each with a one-line summary in mergecheck's own words.
//
// Rule numbers are those of the Comprehensive Rules effective September 25,
// 2026. The summaries are ours, not Wizards' text; the rules themselves are
// cited by number only. Properties, reports, the reference engine and tests
// read summaries from here and never restate them.
package rules

import (
	"bufio"
	"bytes"
	_ "embed"
	"fmt"
	"regexp"
	"sync"

	"github.com/mergecheck/mergecheck/model"
)

// CRDate is the effective date of the Comprehensive Rules cited.
const CRDate = "2026-09-25"

// A Rule is a rule number with its summary.
type Rule struct {
	ID      model.RuleID
	Summary string
}

//go:embed summaries.tsv
var summariesTSV []byte

// numberPattern matches rule numbers such as 110.5, 730.2d and 702.140b.
var numberPattern = regexp.MustCompile(`^[1-9][0-9]{2}(\.[0-9]+[a-z]?)?$`)

var index = sync.OnceValues(func() ([]Rule, error) {
	var all []Rule
	seen := map[model.RuleID]bool{}
	sc := bufio.NewScanner(bytes.NewReader(summariesTSV))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		id, summary, ok := bytes.Cut([]byte(line), []byte("\t"))
		if !ok || len(summary) == 0 {
			return nil, fmt.Errorf("rules: summaries.tsv line %d: want RULE<tab>SUMMARY", n)
		}
		r := Rule{ID: model.RuleID(id), Summary: string(summary)}
		if !numberPattern.MatchString(string(r.ID)) {
			return nil, fmt.Errorf("rules: summaries.tsv line %d: malformed rule number %q", n, r.ID)
		}
		if seen[r.ID] {
			return nil, fmt.Errorf("rules: summaries.tsv line %d: rule %s listed twice", n, r.ID)
		}
		seen[r.ID] = true
		all = append(all, r)
	}
	return all, nil
})

// All returns every rule in the index, in file order.
func All() []Rule {
	all, err := index()
	if err != nil {
		panic(err)
	}
	return all
}

// Lookup returns the rule with the given number and whether it is indexed.
func Lookup(id model.RuleID) (Rule, bool) {
	for _, r := range All() {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}

// Summary returns the summary of rule id, or "" if it is not indexed.
func Summary(id model.RuleID) string {
	r, _ := Lookup(id)
	return r.Summary
}

// WellFormed reports whether id looks like a rule number.
func WellFormed(id model.RuleID) bool { return numberPattern.MatchString(string(id)) }
