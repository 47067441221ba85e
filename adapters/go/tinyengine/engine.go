// Package tinyengine is a deliberately small rules engine, written for
// the Go adapter example: it knows nothing of mergecheck. It models
// single cards and tokens on the battlefield, tapping and untapping them,
// and moving a permanent to its owner's graveyard, hand, library or exile,
// where a token ceases to exist.
//
// Its gaps, by design: no merged, melded, face-down, flipped, phased-out or
// double-faced permanents, no stack, no effects, no abilities with rules
// meaning, no counters, no state-based actions.
package tinyengine

import (
	"errors"
	"fmt"
	"slices"
)

// A Card is a card or a token, as the engine knows it.
type Card struct {
	ID, Owner, Name     string
	Token, Creature     bool
	Power, Toughness    int
	Colors, Types, Subs []string
}

// A Permanent is a card on the battlefield.
type Permanent struct {
	ID         string
	Card       *Card
	Controller string
	Tapped     bool
}

// Pile names a player's zone other than the battlefield.
type Pile string

// The zones a permanent can go to.
const (
	Graveyard Pile = "graveyard"
	Hand      Pile = "hand"
	Library   Pile = "library" // on top
	Exile     Pile = "exile"
)

// A Move is what happened when a permanent left the battlefield.
type Move struct {
	Permanent, Card string
	To              Pile
	Died            bool // a creature put into a graveyard
	Vanished        bool // a token, which ceases to exist
}

// Game is the state of a game.
type Game struct {
	Battlefield []*Permanent
	Piles       map[string]map[Pile][]string // player -> zone -> card ids, top first
}

// ErrNoSuchPermanent is returned for an id not on the battlefield.
var ErrNoSuchPermanent = errors.New("no such permanent")

// Find returns the permanent with the given id.
func (g *Game) Find(id string) (*Permanent, error) {
	for _, p := range g.Battlefield {
		if p.ID == id {
			return p, nil
		}
	}
	return nil, fmt.Errorf("%w: %s", ErrNoSuchPermanent, id)
}

// SetTapped taps or untaps a permanent and reports whether it changed.
func (g *Game) SetTapped(id string, tapped bool) (bool, error) {
	p, err := g.Find(id)
	if err != nil {
		return false, err
	}
	changed := p.Tapped != tapped
	p.Tapped = tapped
	return changed, nil
}

// Leave puts a permanent into its owner's pile: a token ceases to exist.
func (g *Game) Leave(id string, to Pile) (Move, error) {
	p, err := g.Find(id)
	if err != nil {
		return Move{}, err
	}
	g.Battlefield = slices.DeleteFunc(g.Battlefield, func(q *Permanent) bool { return q == p })
	m := Move{Permanent: p.ID, Card: p.Card.ID, To: to, Died: to == Graveyard && p.Card.Creature, Vanished: p.Card.Token}
	if !p.Card.Token {
		piles := g.Piles[p.Card.Owner]
		if to == Exile || to == Hand {
			piles[to] = append(piles[to], p.Card.ID)
		} else {
			piles[to] = append([]string{p.Card.ID}, piles[to]...)
		}
	}
	return m, nil
}
