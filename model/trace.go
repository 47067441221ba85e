package model

// A RuleID is a Comprehensive Rules number such as "730.2d" or "702.140b".
type RuleID string

// TraceFormat is the value of [Trace.Format] for this version of the
// trace format.
const TraceFormat = "mergecheck/trace/v1"

// A Trace is what an engine observed while playing a scenario: the
// starting state with its derived values, then one [Step] per action.
type Trace struct {
	Format   string `json:"format"`
	Scenario string `json:"scenario"`
	Engine   string `json:"engine,omitempty"`
	Start    State  `json:"start"`
	Steps    []Step `json:"steps"`
	// NewObjects names the objects the engine created that the scenario
	// does not: mergecheck reads the trace in the scenario's terms
	// through them (see [NewObject]). The reference never needs any.
	NewObjects []NewObject `json:"new_objects,omitempty"`
}

// A NewObjectKind says what an object the engine created is.
type NewObjectKind string

// Kinds of [NewObject].
const (
	// NewToken is a token the engine made. With StandsFor empty it is a
	// token no action of the scenario makes, judged as what it is: an
	// object the rules may not have. With StandsFor it is how the engine
	// represents those cards together on the battlefield (a meld that
	// makes one object, say): wherever it is a component, its cards are,
	// topmost first, each with its face and face-down state, and it is
	// left out of the trace's events and zones.
	NewToken NewObjectKind = "token"
	// NewStandIn is an object standing for the one scenario card in
	// StandsFor (a face-down stand-in made by manifest, say): it is read
	// as that card everywhere.
	NewStandIn NewObjectKind = "stand_in"
	// NewPermanent is a permanent id of the engine's own (a permanent it
	// made anew for a merge or a meld): it is read as the rules' name for
	// the permanent made of the same cards in the same state.
	NewPermanent NewObjectKind = "new_permanent"
)

// A NewObject is an object an engine's trace names that the scenario
// does not.
type NewObject struct {
	ID        ObjectID      `json:"id"`
	Kind      NewObjectKind `json:"kind"`
	StandsFor []ObjectID    `json:"stands_for,omitempty"`
}

// A Step is the outcome of one action: the events it caused, in the order
// they happened, and the state once the action and the state-based actions
// after it are done.
type Step struct {
	Action int     `json:"action"`
	Events []Event `json:"events,omitempty"`
	State  State   `json:"state"`
}

// An EventKind names one kind of [Event].
type EventKind string

// Kinds of events a trace records.
const (
	// ZoneChange is one object moving between zones. A merged or melded
	// permanent leaving the battlefield is one such event, with Objects 1,
	// Cards the number of cards among its components, and a Move per
	// component (CR 730.3, 712.21, 712.21e).
	ZoneChange EventKind = "zone_change"
	// Trigger is a standard observer's trigger condition being met.
	Trigger EventKind = "trigger"
	// Reveal is a player revealing cards (CR 708.9, 730.2g).
	Reveal EventKind = "reveal"
	// NothingHappens records an instruction the rules say does nothing,
	// with the rule that says so (CR 708.2b, 712.16, 730.2g, 730.2j, ...).
	NothingHappens EventKind = "nothing_happens"
	// CeaseToExist is a token outside the battlefield ceasing to exist
	// (CR 704.5d, 111.7).
	CeaseToExist EventKind = "cease_to_exist"
	// Merged is an object merging with a permanent (CR 730.2).
	Merged EventKind = "merged"
	// StatusChange is a permanent's status changing (CR 110.5).
	StatusChange EventKind = "status_change"
)

// NotAllowed reports that the rules forbid the action (Rule says which):
// it can't be taken, and the game is as it was before (CR 508.1, 733).
// Unlike NothingHappens, which reports an action taken to no effect.
const NotAllowed EventKind = "not_allowed"

// Attacks reports that creature Object was declared an attacker
// (CR 508.1a).
const Attacks EventKind = "attacks"

// EventKinds lists every event kind, in a fixed order.
var EventKinds = []EventKind{ZoneChange, Trigger, Reveal, NothingHappens, CeaseToExist, Merged, StatusChange, NotAllowed, Attacks}

// An Observer is a standard triggered-ability condition that traces report
// as it is met, as though a permanent with that ability were watching.
type Observer string

// The standard observers.
const (
	// CreatureDies: "whenever a creature dies", once per creature
	// permanent put into a graveyard from the battlefield.
	CreatureDies Observer = "creature_dies"
	// CardToGraveyard: "whenever a card is put into a graveyard from
	// anywhere", once per card.
	CardToGraveyard Observer = "card_to_graveyard"
	// TurnedFaceUp: "whenever a permanent is turned face up", once per permanent.
	TurnedFaceUp Observer = "turned_face_up"
	// CreatureEnters: "whenever a creature enters", once per creature permanent.
	CreatureEnters Observer = "creature_enters"
	// Mutates: "whenever this creature mutates", once per such ability of
	// the mutated permanent, with Source the component that has it.
	Mutates Observer = "mutates"
	// TurnedFaceDown: "whenever a permanent is turned face down", once per
	// permanent (a merged permanent is one, CR 730.2f).
	TurnedFaceDown Observer = "turned_face_down"
	// NontokenCreatureDies: "whenever a nontoken creature dies", once per
	// such creature; a merged permanent is a token only if its topmost
	// component is (CR 730.2d).
	NontokenCreatureDies Observer = "nontoken_creature_dies"
	// PermanentEnters: "whenever a permanent enters", once per permanent
	// of any type. Merging is not entering (CR 730.2b).
	PermanentEnters Observer = "permanent_enters"
)

// Observers lists every standard observer, in a fixed order.
var Observers = []Observer{CreatureDies, CardToGraveyard, TurnedFaceUp, CreatureEnters, Mutates, TurnedFaceDown, NontokenCreatureDies, PermanentEnters}

// An Event is one thing that happened during an action.
type Event struct {
	Kind EventKind `json:"kind"`
	// Rule is the rule that caused or governs the event, when one does.
	Rule RuleID `json:"rule,omitempty"`
	// Object is the permanent, card or token the event concerns.
	Object   ObjectID    `json:"object,omitempty"`
	From     Zone        `json:"from,omitempty"`
	To       Zone        `json:"to,omitempty"`
	Objects  int         `json:"objects,omitempty"` // objects that changed zones
	Cards    int         `json:"cards,omitempty"`   // cards that changed zones
	Moves    []Placement `json:"moves,omitempty"`
	Observer Observer    `json:"observer,omitempty"`
	// Source is the component whose ability triggered, for Mutates, or
	// the permanent whose replacement effect moved a card.
	Source   ObjectID   `json:"source,omitempty"`
	Player   PlayerID   `json:"player,omitempty"`
	Revealed []ObjectID `json:"revealed,omitempty"`
	// Status is the status after a StatusChange.
	Status *Status `json:"status,omitempty"`
}

// A Placement is where one component of a permanent (or one card) went.
type Placement struct {
	Object ObjectID `json:"object"`
	To     Zone     `json:"to"`
	Owner  PlayerID `json:"owner,omitempty"`
	// By names the permanent whose replacement effect sent it there, or
	// "commander" for the commander's choice (CR 903.9).
	By ObjectID `json:"by,omitempty"`
}
