package model

import (
	"fmt"
	"sync"
)

// ScenarioFormat is the value of [Scenario.Format] for this version of the
// scenario format. A reader rejects any other value.
const ScenarioFormat = "mergecheck/scenario/v1"

// A Scenario is a complete, deterministic game fragment: the cards it
// uses, the objects in the game, the starting state (merged stacks built
// directly), the actions to perform, and the choices the rules leave to
// players, scripted in each action's [Choices].
type Scenario struct {
	Format      string   `json:"format"`
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	Rules       []RuleID `json:"rules,omitempty"` // the rules the scenario exercises
	// Catalogue holds the definition of every card and token the scenario
	// uses, so a scenario file stands alone.
	Catalogue []CardDef     `json:"catalogue"`
	Objects   []Object      `json:"objects"`
	Start     State         `json:"start"`
	Actions   []Action      `json:"actions"`
	Expect    []Expectation `json:"expect,omitempty"`
}

// Def returns the catalogue definition named name, or nil.
func (s *Scenario) Def(name string) *CardDef {
	for i := range s.Catalogue {
		if s.Catalogue[i].Name == name {
			return &s.Catalogue[i]
		}
	}
	return nil
}

// Object returns the object with the given id, or nil. A large scenario's
// objects are indexed, so that looking each of them up costs linear time
// in all, not quadratic.
func (s *Scenario) Object(id ObjectID) *Object {
	if len(s.Objects) >= indexFrom {
		// A hit is checked, so an index of a slice changed in place since
		// is never believed; a miss is searched for below.
		if i, ok := objectIndex(s.Objects)[id]; ok && i < len(s.Objects) && s.Objects[i].ID == id {
			return &s.Objects[i]
		}
	}
	for i := range s.Objects {
		if s.Objects[i].ID == id {
			return &s.Objects[i]
		}
	}
	return nil
}

// indexFrom is the number of objects from which Object uses an index.
const indexFrom = 64

// objectIndexes caches the index of a few large object lists, by the
// list's first element and length: a scenario is looked up in many times
// while it is played and judged, then dropped.
var objectIndexes struct {
	sync.Mutex
	byList map[indexKey]map[ObjectID]int
}

type indexKey struct {
	first *Object
	n     int
}

func objectIndex(objects []Object) map[ObjectID]int {
	k := indexKey{&objects[0], len(objects)}
	objectIndexes.Lock()
	defer objectIndexes.Unlock()
	if at, ok := objectIndexes.byList[k]; ok {
		return at
	}
	if len(objectIndexes.byList) >= 8 {
		clear(objectIndexes.byList) // a few lists are in use at once
	}
	if objectIndexes.byList == nil {
		objectIndexes.byList = map[indexKey]map[ObjectID]int{}
	}
	at := make(map[ObjectID]int, len(objects))
	for i := range objects {
		if _, dup := at[objects[i].ID]; !dup {
			at[objects[i].ID] = i // the first, as the search finds it
		}
	}
	objectIndexes.byList[k] = at
	return at
}

// EnteredID is the id of the permanent that object becomes when it enters
// the battlefield during action number action (0-based). Every engine names
// new permanents this way, so traces from different engines line up.
func EnteredID(object ObjectID, action int) ObjectID {
	return ObjectID(fmt.Sprintf("%s@%d", object, action))
}

// An ActionType names one kind of [Action].
type ActionType string

// The actions a scenario can perform. Each is an event of the game, as an
// instruction of a resolving spell or ability, a special action or a
// turn-based action would perform it.
const (
	// Cast puts card Object from its owner's hand onto the stack as a
	// permanent spell; Method "morph" or "disguise" casts it face down.
	Cast ActionType = "cast"
	// CastMutate casts card Object from hand for its mutate cost, targeting
	// permanent Target (CR 702.140a).
	CastMutate ActionType = "cast_mutate"
	// Resolve resolves the top object of the stack. A mutating creature
	// spell with a legal target merges at Choices.Position (CR 702.140c).
	Resolve ActionType = "resolve"
	// Merge is the bare CR 730.2 primitive: card Object leaves its zone and
	// merges with permanent Target at Choices.Position.
	Merge ActionType = "merge"
	// Meld exiles permanents Object and With and melds them (CR 701.42).
	Meld ActionType = "meld"
	// TurnFaceDown turns permanent Object face down by an effect (CR 708.2a).
	TurnFaceDown ActionType = "turn_face_down"
	// TurnFaceUp turns permanent Object face up, by an effect (Method
	// "effect" or empty) or by a special action (Method "morph",
	// "disguise", "manifest", "cloak").
	TurnFaceUp ActionType = "turn_face_up"
	// Manifest puts the top card of Player's library onto the battlefield
	// face down; Method is "manifest" (CR 701.40) or "cloak" (CR 701.58).
	// Object names that card, as a check.
	Manifest ActionType = "manifest"
	// Transform and Convert turn permanent Object to its other face (CR 701.27, 701.28).
	Transform ActionType = "transform"
	Convert   ActionType = "convert"
	// Flip flips permanent Object (CR 710).
	Flip ActionType = "flip"
	// Tap and Untap change permanent Object's tapped status (CR 701.26).
	Tap   ActionType = "tap"
	Untap ActionType = "untap"
	// PhaseOut and PhaseIn change permanent Object's phased status (CR 702.26).
	PhaseOut ActionType = "phase_out"
	PhaseIn  ActionType = "phase_in"
	// Move puts permanent Object from the battlefield into zone To. Source,
	// if set, is the permanent whose linked ability exiles it (CR 607), as
	// Duplicant's does.
	Move ActionType = "move"
	// Return finds the new objects permanent Object became when it last
	// left the battlefield (CR 400.7, 730.3c) and returns each to the
	// battlefield under Player's control (its owner's if empty), each with
	// Counters.
	Return ActionType = "return"
	// ExileFound finds the new objects permanent Object became when it
	// died and, if Choices.May, exiles them with Source's linked ability
	// (Mimic Vat), returning the cards exiled with Source before to their
	// owners' graveyards.
	ExileFound ActionType = "exile_found"
	// AddCounters puts N counters of kind Counter on permanent Object.
	AddCounters ActionType = "add_counters"
	// Pump gives permanent Object +Power/+Toughness until end of turn.
	Pump ActionType = "pump"
	// BecomeCopy exiles card Card from a graveyard and makes permanent
	// Object a copy of it, except that it has the abilities in Gains
	// (Dimir Doppelganger).
	BecomeCopy ActionType = "become_copy"
	// TokenCopy creates token Token, a copy of permanent Object, under
	// Player's control (CR 707.2, 707.8a).
	TokenCopy ActionType = "create_token_copy"
	// NextTurn ends the turn and begins the other player's: effects that
	// last until end of turn end, then that player's untap step phases and
	// untaps their permanents (CR 502.1, 502.3).
	NextTurn ActionType = "next_turn"
	// CreateToken creates token Token, defined by catalogue entry Def (not
	// a copy of anything), under Player's control; Player owns it
	// (CR 111.1, 111.2).
	CreateToken ActionType = "create_token"
	// EnterAsCopy puts creature card Object from its owner's hand onto the
	// battlefield as a copy of permanent Target, as Clone does: it becomes
	// the copy as it enters (CR 707.5), with Target's copiable values
	// (CR 707.2, 707.8).
	EnterAsCopy ActionType = "enter_as_copy"
	// Attack declares creature Object an attacker (CR 508.1a). It is not
	// allowed unless the active player controls it, it is untapped and it
	// has haste or has been under that player's control since the turn
	// began (CR 302.6, 702.10b). The model stops at the declaration: no
	// action may follow an attack.
	Attack ActionType = "attack"
	// DestroyAll destroys every creature on the battlefield (CR 701.8a);
	// phased-out permanents are treated as though they don't exist
	// (CR 702.26b). Choices.Order arranges the cards that go to one
	// graveyard together, top first (CR 404.3, 730.3a).
	DestroyAll ActionType = "destroy_all"
)

// ActionTypes lists every action type, in a fixed order.
var ActionTypes = []ActionType{
	Cast, CastMutate, Resolve, Merge, Meld, TurnFaceDown, TurnFaceUp, Manifest,
	Transform, Convert, Flip, Tap, Untap, PhaseOut, PhaseIn, Move, Return,
	ExileFound, AddCounters, Pump, BecomeCopy, TokenCopy, NextTurn,
	CreateToken, EnterAsCopy, Attack, DestroyAll,
}

// A Zone names a zone, as a destination of [Move] and in events.
type Zone string

// Zones of the game. LibraryTop and LibraryBottom are destinations that
// say where in the library.
const (
	Battlefield   Zone = "battlefield"
	Graveyard     Zone = "graveyard"
	Hand          Zone = "hand"
	Library       Zone = "library"
	LibraryTop    Zone = "library_top"
	LibraryBottom Zone = "library_bottom"
	Exile         Zone = "exile"
	Command       Zone = "command"
	StackZone     Zone = "stack"
)

// A Position says where a merging object goes in a merged stack.
type Position string

// Top and Bottom are the only places a merging object can go (CR 730.2,
// and the mutate general notes: never in the middle).
const (
	Top    Position = "top"
	Bottom Position = "bottom"
)

// An Action is one step of a scenario. Which fields it uses depends on Type;
// see the [ActionType] constants.
type Action struct {
	Type      ActionType     `json:"type"`
	Object    ObjectID       `json:"object,omitempty"`
	Target    ObjectID       `json:"target,omitempty"`
	With      ObjectID       `json:"with,omitempty"`
	Card      ObjectID       `json:"card,omitempty"`
	Token     ObjectID       `json:"token,omitempty"`
	Def       string         `json:"def,omitempty"` // a catalogue entry, for CreateToken
	Source    ObjectID       `json:"source,omitempty"`
	Player    PlayerID       `json:"player,omitempty"`
	To        Zone           `json:"to,omitempty"`
	Method    FaceDownKind   `json:"method,omitempty"`
	Counter   string         `json:"counter,omitempty"`
	N         int            `json:"n,omitempty"`
	Power     int            `json:"power,omitempty"`
	Toughness int            `json:"toughness,omitempty"`
	Counters  map[string]int `json:"counters,omitempty"`
	Gains     []AbilityID    `json:"gains,omitempty"`
	Choices   Choices        `json:"choices,omitzero"`
}

// Choices scripts the decisions the rules leave to players during one
// action, so that a run is deterministic. An engine must use exactly these
// choices; a choice the action needs but the scenario lacks, or one that
// does not fit, is an error of the scenario.
type Choices struct {
	// Position is where a mutating or merging object goes (CR 702.140c).
	Position Position `json:"position,omitempty"`
	// Order arranges the cards that move together into one ordered zone:
	// top first for a graveyard or library (CR 730.3a, 712.21a), earliest
	// timestamp first for exile (CR 730.3b, 712.21b).
	Order []ObjectID `json:"order,omitempty"`
	// Replacement names the permanent whose replacement effect applies
	// when several could (CR 616.1, 730.3d, 712.21d).
	Replacement ObjectID `json:"replacement,omitempty"`
	// CommandZone is the owner's choice to put a commander into the
	// command zone (CR 903.9a-c).
	CommandZone *bool `json:"command_zone,omitempty"`
	// May answers a "you may" instruction, such as Mimic Vat's.
	May *bool `json:"may,omitempty"`
}

// IsZero reports whether no choice is scripted.
func (c Choices) IsZero() bool {
	return c.Position == "" && len(c.Order) == 0 && c.Replacement == "" && c.CommandZone == nil && c.May == nil
}

// Bool returns a pointer to b, for Choices literals.
func Bool(b bool) *bool { return &b }
