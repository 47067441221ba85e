package model

// A PlayerID names a player of a scenario, such as "A" or "B".
type PlayerID string

// An ObjectID names a card or token of a scenario ("c1", "t1") or a
// permanent on the battlefield ("p1"). A permanent that enters during a run
// is named by [EnteredID].
type ObjectID string

// An Object is one physical card or one token. Its characteristics come
// from a catalogue definition (Def) or, for a token created as a copy during
// a run, from the definition carried inline (Copy).
type Object struct {
	ID    ObjectID `json:"id"`
	Def   string   `json:"def,omitempty"`
	Owner PlayerID `json:"owner"`
	Token bool     `json:"token,omitempty"`
	// Commander marks the card a player's commander (CR 903.3: an attribute
	// of the card, not a characteristic).
	Commander bool `json:"commander,omitempty"`
	// Copy is the copiable values of a token created as a copy of a
	// permanent (CR 707.2), set by the engine that created it.
	Copy *CardDef `json:"copy,omitempty"`
}

// A FaceSide says which face of a component is up.
type FaceSide string

// The faces a component may show. Front is the default. Back is the back
// face of a double-faced card; for the two halves of a melded permanent it
// is their shared combined back face (CR 712.4a).
const (
	Front FaceSide = "front"
	Back  FaceSide = "back"
)

// A FaceDownKind names the ability or rule that made a component face down,
// which lists its face-down characteristics (CR 708.2).
type FaceDownKind string

// Ways a component can be face down.
const (
	ByMorph    FaceDownKind = "morph"    // CR 702.37: 2/2, nothing else
	ByDisguise FaceDownKind = "disguise" // CR 702.168: 2/2 with ward {2}
	ByManifest FaceDownKind = "manifest" // CR 701.40: 2/2, nothing else
	ByCloak    FaceDownKind = "cloak"    // CR 701.58: 2/2 with ward {2}
	ByEffect   FaceDownKind = "effect"   // CR 708.2a: turned face down by a spell or ability
)

// A Component is one card or token representing a permanent, with its own
// face-up or face-down state and the face it shows.
type Component struct {
	Object     ObjectID     `json:"object"`
	Face       FaceSide     `json:"face,omitempty"` // empty means Front
	FaceDown   bool         `json:"face_down,omitempty"`
	FaceDownBy FaceDownKind `json:"face_down_by,omitempty"`
}

// Status is a permanent's physical state (CR 110.5): four categories with
// two values each. It is not a characteristic (CR 110.5a).
type Status struct {
	Tapped    bool `json:"tapped,omitempty"`
	Flipped   bool `json:"flipped,omitempty"`
	FaceDown  bool `json:"face_down,omitempty"`
	PhasedOut bool `json:"phased_out,omitempty"`
}

// An EffectKind names a kind of continuous effect a permanent can be under.
type EffectKind string

// Continuous effects the model knows.
const (
	// EffectPump is "gets +N/+N" (layer 7c), until end of turn unless Permanent.
	EffectPump EffectKind = "pump"
	// EffectCopy is "becomes a copy of" a card (layer 1a, CR 707), with the
	// abilities in Gains added to the copiable values (CR 707.9a).
	EffectCopy EffectKind = "copy"
)

// An Effect is one continuous effect applying to a permanent.
type Effect struct {
	Kind      EffectKind `json:"kind"`
	Timestamp int        `json:"timestamp"`
	Power     int        `json:"power,omitempty"`
	Toughness int        `json:"toughness,omitempty"`
	// UntilEndOfTurn ends the effect at the cleanup step.
	UntilEndOfTurn bool `json:"until_end_of_turn,omitempty"`
	// Of names the card definition copied, for EffectCopy.
	Of    string      `json:"of,omitempty"`
	Gains []AbilityID `json:"gains,omitempty"`
}

// A Permanent is one object on the battlefield, represented by one or more
// components, topmost first. A permanent with two or more components is a
// merged permanent (CR 730.2) or a melded permanent (CR 701.42a).
type Permanent struct {
	ID         ObjectID    `json:"id"`
	Controller PlayerID    `json:"controller"`
	Components []Component `json:"components"`
	Status     Status      `json:"status"`
	// Mutated is set once a mutating creature spell has merged with the
	// permanent (CR 702.140c); a mutated permanent has the abilities of
	// every component (CR 702.140e).
	Mutated  bool           `json:"mutated,omitempty"`
	Counters map[string]int `json:"counters,omitempty"` // "+1/+1" -> 2
	Effects  []Effect       `json:"effects,omitempty"`  // in timestamp order
	// Timestamp is the permanent's own timestamp (CR 613.7d, f, g).
	Timestamp int `json:"timestamp"`
	// ControlledSinceTurnStart is false for a permanent that came under its
	// controller's control this turn (CR 302.6).
	ControlledSinceTurnStart bool `json:"controlled_since_turn_start,omitempty"`
	// AttachedTo names the permanent an Aura is attached to, and
	// EnchantedPlayer the player an Aura with enchant player is attached to.
	AttachedTo      ObjectID `json:"attached_to,omitempty"`
	EnchantedPlayer PlayerID `json:"enchanted_player,omitempty"`
	// Derived holds values the engine computes (characteristics and what
	// the rules say follows from the components). It is set in traces and
	// must be absent from a scenario's starting state.
	Derived *Derived `json:"derived,omitempty"`
}

// Derived is what an engine computes about a permanent rather than being told.
type Derived struct {
	Characteristics Characteristics `json:"characteristics"`
	// Token reports whether the permanent is a token (CR 111.1, 730.2d).
	Token bool `json:"token,omitempty"`
	// Merged is true for a permanent with two or more components that is
	// not a melded pair.
	Merged bool `json:"merged,omitempty"`
	// Melded is true for a melded permanent (CR 701.42a).
	Melded bool `json:"melded,omitempty"`
	// DoubleFaced reports a double-faced permanent (CR 712); never true for
	// a merged permanent (CR 730.2i).
	DoubleFaced bool `json:"double_faced,omitempty"`
	// Transformed reports a "transformed permanent" (CR 701.27g).
	Transformed bool `json:"transformed,omitempty"`
	// Commander reports whether the permanent is a commander (CR 903.3b-c).
	Commander bool `json:"commander,omitempty"`
	// Unsettled names the characteristics the rules leave open for this
	// permanent ("abilities"): the reference engine lists one reading of
	// them, and nothing compares them. Only the reference writes it; an
	// engine leaves it out.
	Unsettled []string `json:"unsettled,omitempty"`
}

// Unsettled values of [Derived.Unsettled].
const UnsettledAbilities = "abilities"

// Characteristics are the values a permanent has after every rule and
// effect applies (CR 109.3, 613).
type Characteristics struct {
	Name       string      `json:"name,omitempty"`
	ManaValue  int         `json:"mana_value"`
	Colors     []Color     `json:"colors,omitempty"`
	Types      []string    `json:"types,omitempty"`
	Subtypes   []string    `json:"subtypes,omitempty"`
	Supertypes []string    `json:"supertypes,omitempty"`
	Power      *int        `json:"power,omitempty"`
	Toughness  *int        `json:"toughness,omitempty"`
	Abilities  []AbilityID `json:"abilities,omitempty"` // sorted, without duplicates
}

// Zones holds one player's zones other than the battlefield. Library and
// Graveyard are ordered top first. Exile is ordered by timestamp, earliest
// first (CR 613.7m, 730.3b). Hand and Command are sets, kept sorted.
type Zones struct {
	Library   []ObjectID `json:"library,omitempty"`
	Hand      []ObjectID `json:"hand,omitempty"`
	Graveyard []ObjectID `json:"graveyard,omitempty"`
	Exile     []ObjectID `json:"exile,omitempty"`
	Command   []ObjectID `json:"command,omitempty"`
}

// A Player is one player's identity and zones.
type Player struct {
	ID    PlayerID `json:"id"`
	Zones Zones    `json:"zones"`
}

// A Link records cards exiled with a permanent's linked ability (CR 607),
// such as Duplicant's or Mimic Vat's, in the order they were exiled.
type Link struct {
	Source ObjectID   `json:"source"`
	Cards  []ObjectID `json:"cards"`
}

// A StackObject is a spell waiting to resolve.
type StackObject struct {
	Object     ObjectID `json:"object"`
	Controller PlayerID `json:"controller"`
	// Target is the permanent a mutating creature spell targets; empty for
	// a spell cast normally.
	Target ObjectID `json:"target,omitempty"`
	// FaceDownBy is set for a spell cast face down (morph, disguise).
	FaceDownBy FaceDownKind `json:"face_down_by,omitempty"`
}

// State is the game state a scenario starts from and a trace observes.
type State struct {
	Active      PlayerID      `json:"active"`
	Players     []Player      `json:"players"`
	Battlefield []Permanent   `json:"battlefield,omitempty"` // in timestamp order
	Stack       []StackObject `json:"stack,omitempty"`       // top last
	Links       []Link        `json:"links,omitempty"`
}

// Player returns the player with the given id, or nil.
func (s *State) Player(id PlayerID) *Player {
	for i := range s.Players {
		if s.Players[i].ID == id {
			return &s.Players[i]
		}
	}
	return nil
}

// Permanent returns the permanent with the given id, or nil.
func (s *State) Permanent(id ObjectID) *Permanent {
	for i := range s.Battlefield {
		if s.Battlefield[i].ID == id {
			return &s.Battlefield[i]
		}
	}
	return nil
}
