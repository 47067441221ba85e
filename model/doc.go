// Package model holds the game data that the rules of merged permanents and
// permanent status speak of, and the scenario and trace formats that
// mergecheck, its reference engine and every engine adapter exchange.
//
// Everything here is a plain value with a stable JSON encoding (snake_case
// keys, omitted zero values). A [Scenario] is a complete, deterministic game
// fragment: a card catalogue, the objects in play, a starting [State], a
// list of [Action] values and the choices the rules leave to players. A
// [Trace] is what an engine observed while playing it: after each action,
// the [Event] values the action caused and the resulting state.
//
// Rule numbers cited in this module are those of the Comprehensive Rules
// effective September 25, 2026.
package model
