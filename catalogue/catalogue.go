// Package catalogue holds the definitions of real cards (and a few tokens)
// that the rules' examples name and that mergecheck's scenarios use.
//
// The definitions live in cards.json, embedded at build time. Printed
// characteristics are facts about the cards; abilities are given as stable
// identifiers (see [model.AbilityID]), not as rules text.
package catalogue

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/mergecheck/mergecheck/model"
)

//go:embed cards.json
var cardsJSON []byte

var load = sync.OnceValues(func() (map[string]*model.CardDef, error) {
	var defs []*model.CardDef
	if err := json.Unmarshal(cardsJSON, &defs); err != nil {
		return nil, fmt.Errorf("catalogue: cards.json: %w", err)
	}
	byName := make(map[string]*model.CardDef, len(defs))
	for i, d := range defs {
		if err := d.Validate(); err != nil {
			return nil, fmt.Errorf("catalogue: cards.json entry %d: %w", i, err)
		}
		if _, dup := byName[d.Name]; dup {
			return nil, fmt.Errorf("catalogue: cards.json: %q is defined twice", d.Name)
		}
		byName[d.Name] = d
	}
	return byName, nil
})

// Get returns a copy of the definition named name, or an error naming the
// card if the catalogue has no such definition.
func Get(name string) (model.CardDef, error) {
	all, err := load()
	if err != nil {
		return model.CardDef{}, err
	}
	d, ok := all[name]
	if !ok {
		return model.CardDef{}, fmt.Errorf("catalogue: no card named %q", name)
	}
	return clone(d), nil
}

// MustGet is like [Get] but panics if the card is missing. It is meant for
// tests and for package-level tables naming cards known to be present.
func MustGet(name string) model.CardDef {
	d, err := Get(name)
	if err != nil {
		panic(err)
	}
	return d
}

// Names returns the names of every definition, sorted.
func Names() []string {
	all, err := load()
	if err != nil {
		panic(err)
	}
	names := make([]string, 0, len(all))
	for n := range all {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Check reports whether the embedded catalogue loads and validates.
func Check() error {
	_, err := load()
	return err
}

// clone deep-copies d so callers can change their copy freely.
func clone(d *model.CardDef) model.CardDef { return d.Clone() }
