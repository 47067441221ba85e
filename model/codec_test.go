package model_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/model"
)

// validScenario is the smallest scenario these tests start from: one
// Grizzly Bears on the battlefield, one in A's graveyard, a meld card in
// A's hand, one action and one expectation. Each bad input below is this
// text with one edit, so the edit is the only thing wrong with it.
const validScenario = `{
  "format": "mergecheck/scenario/v1",
  "name": "bad-input",
  "catalogue": [
    {"name": "Grizzly Bears", "layout": "normal", "front": {"name": "Grizzly Bears", "types": ["creature"], "power": 2, "toughness": 2}},
    {"name": "Graf Rats", "layout": "meld", "front": {"name": "Graf Rats", "types": ["creature"], "power": 2, "toughness": 1}, "meld_partner": "Midnight Scavengers", "melded": {"name": "Chittering Host", "types": ["creature"], "power": 5, "toughness": 6}}
  ],
  "objects": [
    {"id": "c1", "def": "Grizzly Bears", "owner": "A"},
    {"id": "c2", "def": "Grizzly Bears", "owner": "A"},
    {"id": "r1", "def": "Graf Rats", "owner": "A"}
  ],
  "start": {
    "active": "A",
    "players": [{"id": "A", "zones": {"hand": ["r1"], "graveyard": ["c2"]}}, {"id": "B", "zones": {}}],
    "battlefield": [
      {"id": "p1", "controller": "A", "components": [{"object": "c1"}], "status": {}, "timestamp": 1}
    ]
  },
  "actions": [
    {"type": "tap", "object": "p1"}
  ],
  "expect": [
    {"after": 0}
  ]
}
`

// edit returns validScenario with old replaced by new; old must occur
// exactly once, so a row can't silently stop testing what it says.
func edit(t *testing.T, old, new string) string {
	t.Helper()
	require.Equal(t, 1, strings.Count(validScenario, old), "edit target %q must occur exactly once", old)
	return strings.Replace(validScenario, old, new, 1)
}

// badInput is one row of a table of inputs DecodeScenario must reject.
type badInput struct {
	name   string
	reason string // why the input is bad
	input  func(t *testing.T) string
	want   []string // substrings the error must contain
}

func literal(s string) func(*testing.T) string { return func(*testing.T) string { return s } }

func edited(old, new string) func(*testing.T) string {
	return func(t *testing.T) string { return edit(t, old, new) }
}

func checkRejects(t *testing.T, rows []badInput) {
	t.Helper()
	for _, tc := range rows {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.input(t)
			var (
				s   *model.Scenario
				err error
			)
			require.NotPanics(t, func() { s, err = model.DecodeScenario([]byte(in)) }, tc.reason)
			require.Error(t, err, tc.reason)
			assert.Nil(t, s, "a rejected scenario is not returned")
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w, tc.reason)
			}
		})
	}
}

func TestDecodeScenario_AcceptsTheBaseScenario(t *testing.T) {
	s, err := model.DecodeScenario([]byte(validScenario))
	require.NoError(t, err, "every bad input below is one edit away from this valid scenario")
	assert.Equal(t, "bad-input", s.Name)
	assert.Len(t, s.Actions, 1)
}

// TestDecodeScenario_ReportsLineAndColumn checks that a JSON syntax or
// type error says where it is as "line N, column M", M being the 1-based
// column of the first byte of the offending token (of the value, for a
// value of the wrong type), or, for input that stops short, of the place
// where more was expected.
func TestDecodeScenario_ReportsLineAndColumn(t *testing.T) {
	checkRejects(t, []badInput{
		{
			name:   "truncated",
			reason: "the input stops in the middle of the object; the error says where it stopped",
			input:  literal("{\n  \"format\": \"mergecheck/scenario/v1\",\n  \"name\": "),
			want:   []string{"line 3, column 11", "input ends in the middle of a JSON value"},
		},
		{
			name:   "truncated_after_a_complete_member",
			reason: "the closing brace is missing",
			input:  literal("{\n  \"format\": \"mergecheck/scenario/v1\"\n"),
			want:   []string{"line 3, column 1", "input ends in the middle of a JSON value"},
		},
		{
			name:   "trailing_comma",
			reason: "a comma after the last member; the '}' on line 4 is where a key was expected",
			input:  literal("{\n  \"format\": \"mergecheck/scenario/v1\",\n  \"name\": \"x\",\n}"),
			want:   []string{"line 4, column 1", "invalid character '}' looking for beginning of object key string"},
		},
		{
			name:   "wrong_type_for_a_field",
			reason: "timestamp is a number, not a string; the error names the field and gives its line",
			input:  edited(`"status": {}, "timestamp": 1}`, `"status": {}, "timestamp": "1"}`),
			want:   []string{"line 17, column 100", "start.battlefield", "timestamp", "a JSON string can't be a number"},
		},
		{
			name:   "wrong_type_for_format",
			reason: "format is a string",
			input:  literal("{\n  \"format\": 3\n}"),
			want:   []string{"line 2, column 13", "field format", "a JSON number can't be a string"},
		},
		{
			name:   "not_an_object",
			reason: "a scenario is a JSON object, not an array",
			input:  literal("[]"),
			want:   []string{"line 1, column 1", "array"},
		},
	})
}

func TestDecodeScenario_RejectsEmptyAndTrailingInput(t *testing.T) {
	checkRejects(t, []badInput{
		{name: "empty", reason: "no input at all", input: literal(""), want: []string{"empty input"}},
		{name: "only_whitespace", reason: "whitespace is no JSON value", input: literal(" \n\t "), want: []string{"empty input"}},
		{
			name:   "trailing_garbage",
			reason: "a stray word after the scenario",
			input:  func(t *testing.T) string { return validScenario + "  oops" },
			want:   []string{"line 27, column 3", "unexpected data after the JSON value"},
		},
		{
			name:   "second_value",
			reason: "two JSON values; a scenario file holds one",
			input:  func(t *testing.T) string { return validScenario + "{}" },
			want:   []string{"line 27, column 1", "unexpected data after the JSON value"},
		},
	})
}

func TestDecodeScenario_RejectsUnknownField(t *testing.T) {
	checkRejects(t, []badInput{
		{
			name:   "top_level",
			reason: "a misspelled top-level key is an error, not ignored; the error points at it",
			input:  edited(`"name": "bad-input",`, `"name": "bad-input", "actoins": [],`),
			want:   []string{`unknown field "actoins"`, "line 3,"},
		},
		{
			name:   "nested",
			reason: `"grave" is not a zone name; the error names the field and points at its line`,
			input:  edited(`{"id": "B", "zones": {}}`, `{"id": "B", "zones": {"grave": []}}`),
			want:   []string{`unknown field "grave"`, "line 15,"},
		},
		{
			name:   "nested_key_that_is_valid_elsewhere",
			reason: `"name" is a field of a scenario but not of a player's zones; the error points at the zones' key, not at the scenario's name`,
			input:  edited(`{"id": "B", "zones": {}}`, `{"id": "B", "zones": {"name": []}}`),
			want:   []string{`unknown field "name"`, "line 15,"},
		},
		{
			name:   "key_in_another_case",
			reason: `keys are snake_case and matched exactly: "Name" is not "name" (encoding/json would match it case-insensitively)`,
			input:  edited(`"name": "bad-input",`, `"Name": "bad-input",`),
			want:   []string{`unknown field "Name"`, "line 3,"},
		},
	})
}

// TestDecodeScenario_ValidationErrorsSayWhatAndWhere checks scenarios that
// parse but break a rule of the format: the error names the place by its
// path (and id) and says what is wrong, citing the rule where one applies.
func TestDecodeScenario_ValidationErrorsSayWhatAndWhere(t *testing.T) {
	checkRejects(t, []badInput{
		{
			name:   "wrong_format",
			reason: "a reader rejects any other format version",
			input:  edited(`"mergecheck/scenario/v1"`, `"mergecheck/scenario/v0"`),
			want:   []string{`scenario "bad-input"`, `format is "mergecheck/scenario/v0", want "mergecheck/scenario/v1"`},
		},
		{
			name:   "unknown_layout",
			reason: "the catalogue entry's layout is not one of the known layouts; the error names the card and the layout",
			input:  edited(`"layout": "normal"`, `"layout": "split"`),
			want:   []string{"catalogue[0]", `card "Grizzly Bears"`, `unknown layout "split"`},
		},
		{
			name:   "def_not_in_catalogue",
			reason: "every object's def is defined in the scenario's own catalogue",
			input:  edited(`{"id": "c2", "def": "Grizzly Bears"`, `{"id": "c2", "def": "Runeclaw Bear"`),
			want:   []string{"objects[1] (c2)", `def "Runeclaw Bear" is not in the catalogue`},
		},
		{
			name:   "object_in_two_places",
			reason: "c2 is in A's graveyard and also a component of p1",
			input:  edited(`"components": [{"object": "c1"}]`, `"components": [{"object": "c1"}, {"object": "c2"}], "mutated": true`),
			want:   []string{"start.battlefield[0] (p1).components[1]", "c2 is already in start.players[A].graveyard[0]", "an object is in one place"},
		},
		{
			name:   "token_in_graveyard",
			reason: "a token outside the battlefield has ceased to exist",
			input:  edited(`{"id": "c2", "def": "Grizzly Bears", "owner": "A"}`, `{"id": "c2", "def": "Grizzly Bears", "owner": "A", "token": true}`),
			want:   []string{"start.players[A].graveyard[0]", "token c2 is outside the battlefield", "CR 704.5d"},
		},
		{
			name:   "derived_set",
			reason: "derived values are the engine's output, never a scenario's input",
			input:  edited(`"status": {}, "timestamp": 1}`, `"status": {}, "timestamp": 1, "derived": {"characteristics": {"mana_value": 0}}}`),
			want:   []string{"start.battlefield[0] (p1)", "derived values are computed by the engine"},
		},
		{
			name:   "face_down_status_disagrees_with_topmost_component",
			reason: "a permanent's face-down status is its topmost component's",
			input:  edited(`"status": {}`, `"status": {"face_down": true}`),
			want:   []string{"start.battlefield[0] (p1)", "status face_down=true", "topmost component c1 has face_down=false", "CR 730.2e"},
		},
		{
			name:   "meld_back_face_on_a_lone_card",
			reason: "Graf Rats shows its back face (Chittering Host) without its meld partner",
			input: func(t *testing.T) string {
				s := edit(t, `"hand": ["r1"], `, ``)
				return strings.Replace(s, `"components": [{"object": "c1"}]`, `"components": [{"object": "c1"}]}, {"id": "p2", "controller": "A", "components": [{"object": "r1", "face": "back"}], "status": {}, "timestamp": 2`, 1)
			},
			want: []string{"start.battlefield[1] (p2)", "a meld card's back face is up only in a melded pair", "CR 712.4b"},
		},
		{
			name:   "expectation_unknown_colour",
			reason: "colours are W, U, B, R and G",
			input:  edited(`{"after": 0}`, `{"after": 0, "permanents": {"p1": {"colors": ["P"]}}}`),
			want:   []string{"expect[0].permanents[p1]", `unknown colour "P"`},
		},
		{
			name:   "expectation_present_and_absent",
			reason: "an ability can't be claimed both present and absent",
			input:  edited(`{"after": 0}`, `{"after": 0, "permanents": {"p1": {"abilities": ["flying"], "lacks": ["flying"]}}}`),
			want:   []string{"expect[0].permanents[p1]", "flying is claimed both present and absent"},
		},
		{
			name:   "expectation_absent_with_claims",
			reason: "a permanent claimed gone has nothing else to claim",
			input:  edited(`{"after": 0}`, `{"after": 0, "permanents": {"p1": {"absent": true, "mana_value": 2}}}`),
			want:   []string{"expect[0].permanents[p1]", "absent claims the permanent is gone"},
		},
		{
			name:   "expectation_faces_out_of_order",
			reason: "faces and components list the same components, topmost first",
			input:  edited(`{"after": 0}`, `{"after": 0, "permanents": {"p1": {"components": ["c1"], "faces": [{"object": "c2"}]}}}`),
			want:   []string{"expect[0].permanents[p1]", "faces[0] names c2"},
		},
		{
			name:   "expectation_unknown_event_kind",
			reason: "a sequence picks events by a known kind",
			input:  edited(`{"after": 0}`, `{"after": 0, "sequence": [{"kind": "dies"}]}`),
			want:   []string{"expect[0].sequence[0]", `unknown event kind "dies"`},
		},
		{
			name:   "pump_that_would_overflow",
			reason: "a pump of 2^63-1 twice wraps an engine's int; values are bounded",
			input:  edited(`{"type": "tap", "object": "p1"}`, `{"type": "pump", "object": "p1", "power": 9223372036854775807}`),
			want:   []string{"actions[0] (pump)", "power 9223372036854775807", "beyond what mergecheck takes"},
		},
		{
			name:   "counters_that_would_overflow",
			reason: "add_counters is bounded like pump",
			input:  edited(`{"type": "tap", "object": "p1"}`, `{"type": "add_counters", "object": "p1", "counter": "+1/+1", "n": 4611686018427387904}`),
			want:   []string{"actions[0] (add_counters)", "n 4611686018427387904", "beyond what mergecheck takes"},
		},
		{
			name:   "unknown_counter_kind",
			reason: "a counter mergecheck does not model would be silently ignored; it is refused",
			input:  edited(`{"type": "tap", "object": "p1"}`, `{"type": "add_counters", "object": "p1", "counter": "hatchling", "n": 1}`),
			want:   []string{"actions[0] (add_counters)", `counter "hatchling" is not a kind mergecheck models`, "flying"},
		},
		{
			name:   "bad_colour_on_a_face",
			reason: "a face is the colours of its mana cost and colour indicator (CR 202.2, 204.2)",
			input:  edited(`{"name": "Grizzly Bears", "types": ["creature"], "power": 2, "toughness": 2}`, `{"name": "Grizzly Bears", "mana_cost": "{1}{G}", "types": ["creature"], "power": 2, "toughness": 2}`),
			want:   []string{"Grizzly Bears", `mana cost "{1}{G}"`, "CR 202.2"},
		},
		{
			name:   "colour_with_no_source_on_a_melded_face",
			reason: "a melded face has no mana cost, so its only colours are those of its colour indicator (CR 202.2, 204.2)",
			input:  edited(`"melded": {"name": "Chittering Host", "types"`, `"melded": {"name": "Chittering Host", "colors": ["B"], "types"`),
			want:   []string{"catalogue[1]", `card "Graf Rats"`, `face "Chittering Host"`, "colour B", "CR 202.2, 204.2"},
		},
		{
			name:   "colour_a_card_adds",
			reason: "only a token's definition adds colours to those of its mana cost and colour indicator (CR 111.3); Grizzly Bears is c1's, a card's",
			input:  edited(`{"name": "Grizzly Bears", "types": ["creature"], "power": 2, "toughness": 2}`, `{"name": "Grizzly Bears", "colors": ["G"], "types": ["creature"], "power": 2, "toughness": 2}`),
			want:   []string{"catalogue[0]", `card "Grizzly Bears"`, `face "Grizzly Bears"`, "colour G", "objects[0] (c1)", "CR 111.3"},
		},
		{
			name:   "negative_timestamp",
			reason: "timestamps count up from 0",
			input:  edited(`"status": {}, "timestamp": 1}`, `"status": {}, "timestamp": -3}`),
			want:   []string{"start.battlefield[0] (p1)", "timestamp -3 is negative"},
		},
		{
			name:   "unknown_action_type",
			reason: "the action type is not one of model.ActionTypes",
			input:  edited(`{"type": "tap", "object": "p1"}`, `{"type": "sacrifice", "object": "p1"}`),
			want:   []string{"actions[0]", `unknown type "sacrifice"`},
		},
		{
			name:   "move_with_a_bad_destination",
			reason: "a permanent moves to a graveyard, hand, library or exile, never to the stack",
			input:  edited(`{"type": "tap", "object": "p1"}`, `{"type": "move", "object": "p1", "to": "stack"}`),
			want:   []string{"actions[0] (move)", `to "stack" is not a destination`},
		},
		{
			name:   "action_missing_a_required_field",
			reason: "cast_mutate names the card cast and its target",
			input:  edited(`{"type": "tap", "object": "p1"}`, `{"type": "cast_mutate", "object": "r1"}`),
			want:   []string{"actions[0] (cast_mutate)", "target is required"},
		},
		{
			name:   "create_token_of_an_unknown_def",
			reason: "a created token's definition is an entry of the scenario's catalogue",
			input:  edited(`{"type": "tap", "object": "p1"}`, `{"type": "create_token", "token": "t9", "def": "Goblin Token", "player": "A"}`),
			want:   []string{"actions[0] (create_token)", `def "Goblin Token" is not in the catalogue`},
		},
		{
			name:   "action_after_an_attack",
			reason: "the model stops at the declaration of attackers",
			input:  edited(`{"type": "tap", "object": "p1"}`, `{"type": "attack", "object": "p1"}, {"type": "tap", "object": "p1"}`),
			want:   []string{"actions[0] (attack)", "an attack must be the last action"},
		},
		{
			name:   "expectation_past_the_last_action",
			reason: "an expectation checks the step after an action that exists",
			input:  edited(`{"after": 0}`, `{"after": 1}`),
			want:   []string{"expect[0]", "after 1 is not an action index (0..0)"},
		},
	})
}

// Test111_3_OnlyATokensDefinitionAddsColours: the effect that creates a
// token gives its colours (CR 111.3), so a definition only tokens use may
// be coloured without a mana cost or colour indicator; the same
// definition is rejected once a card uses it.
func Test111_3_OnlyATokensDefinitionAddsColours(t *testing.T) {
	saproling := `{"name": "Saproling Token", "layout": "normal", "front": {"name": "Saproling Token", "colors": ["G"], "types": ["creature"], "subtypes": ["Saproling"], "power": 1, "toughness": 1}}`
	withToken := edit(t, `"catalogue": [`, `"catalogue": [`+"\n    "+saproling+",")
	withToken = strings.Replace(withToken, `{"type": "tap", "object": "p1"}`, `{"type": "create_token", "token": "t1", "def": "Saproling Token", "player": "A"}`, 1)
	_, err := model.DecodeScenario([]byte(withToken))
	require.NoError(t, err, "a token's definition gives the colours of the effect that creates it")

	asCard := strings.Replace(withToken, `{"id": "c1", "def": "Grizzly Bears"`, `{"id": "c1", "def": "Saproling Token"`, 1)
	_, err = model.DecodeScenario([]byte(asCard))
	require.Error(t, err)
	for _, w := range []string{"catalogue[0]", `card "Saproling Token"`, "colour G", "objects[0] (c1)"} {
		assert.ErrorContains(t, err, w)
	}
}
