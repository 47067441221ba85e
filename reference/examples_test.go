package reference_test

import (
	"github.com/mergecheck/mergecheck/internal/build"
	"github.com/mergecheck/mergecheck/model"
	"strconv"
)

// The worked examples of ../shared/rules and of the official mutate notes,
// as scenarios. Each file under testdata/examples is written from these by
// go test -update; the expectations are ours, read from the rule or ruling
// the scenario cites, and are checked against the reference's trace.

var (
	a, b = build.A, build.B
	up   = build.Up
	back = build.BackUp
	down = build.Down
)

func ptr[T any](v T) *T { return &v }

func order(ids ...model.ObjectID) model.Choices { return model.Choices{Order: ids} }

// chitteringHost adds Chittering Host, melded from c1 (Midnight Scavengers)
// and c2 (Graf Rats), as permanent p1 under A.
func chitteringHost(bd *build.Builder) *build.Builder {
	bd.Card("c1", a, "Midnight Scavengers")
	bd.Card("c2", a, "Graf Rats")
	return bd.Perm("p1", a, back("c1"), back("c2"))
}

func examples() []*model.Scenario {
	var out []*model.Scenario
	add := func(bd *build.Builder) { out = append(out, bd.Scenario()) }

	add(chitteringHost(build.New("712.21-chittering-host-dies",
		"Chittering Host dies: one creature died, two cards were put into a graveyard.", "712.21", "712.21a", "712.21e")).
		Do(model.Action{Type: model.Move, Object: "p1", To: model.Graveyard, Choices: order("c2", "c1")}).
		Expect(model.Expectation{
			Why:             "CR 712.21 example; 712.21e counts one object and two cards; 712.21a lets the owner order them",
			Triggers:        map[model.Observer]int{model.CreatureDies: 1, model.CardToGraveyard: 2},
			LeftBattlefield: &model.Count{Objects: 1, Cards: 2},
			Zones:           map[model.PlayerID]map[model.Zone][]model.ObjectID{a: {model.Graveyard: {"c2", "c1"}}},
			Permanents:      map[model.ObjectID]model.PermanentClaim{"p1": {Absent: true}},
		}))

	for _, last := range []struct {
		card       model.ObjectID
		first      model.ObjectID
		name       string
		pow, tough int
	}{{"c1", "c2", "scavengers-last", 3, 3}, {"c2", "c1", "rats-last", 2, 1}} {
		bd := chitteringHost(build.New("712.21b-duplicant-exiles-chittering-host-"+last.name,
			"Duplicant exiles Chittering Host; its controller orders the two cards' timestamps and so picks the last creature card exiled.", "712.21b", "730.3b", "607"))
		bd.Card("d1", b, "Duplicant")
		bd.Perm("p2", b, up("d1"))
		add(bd.Do(model.Action{Type: model.Move, Object: "p1", To: model.Exile, Source: "p2", Choices: order(last.first, last.card)}).
			Expect(model.Expectation{
				Why:        "CR 712.21b example: Duplicant takes the power, toughness and creature types of the card ordered last",
				Zones:      map[model.PlayerID]map[model.Zone][]model.ObjectID{a: {model.Exile: {last.first, last.card}}},
				Permanents: map[model.ObjectID]model.PermanentClaim{"p2": {Power: ptr(last.pow), Toughness: ptr(last.tough)}},
				Triggers:   map[model.Observer]int{model.CreatureDies: 0, model.CardToGraveyard: 0},
			}))
	}

	add(chitteringHost(build.New("712.21c-otherworldly-journey",
		"Otherworldly Journey exiles Chittering Host; at the next end step both cards return, each with a +1/+1 counter.", "712.21c", "730.3c", "400.7")).
		Do(model.Action{Type: model.Move, Object: "p1", To: model.Exile, Choices: order("c1", "c2")}).
		Do(model.Action{Type: model.Return, Object: "p1", Counters: map[string]int{"+1/+1": 1}, Choices: order("c1", "c2")}).
		Expect(model.Expectation{
			Why:         "CR 712.21c example: the effect finds both cards and returns each with a counter",
			Battlefield: ptr(2),
			Triggers:    map[model.Observer]int{model.CreatureEnters: 2},
			Permanents: map[model.ObjectID]model.PermanentClaim{
				"c1@1": {Name: ptr("Midnight Scavengers"), Power: ptr(4), Toughness: ptr(4), Counters: map[string]int{"+1/+1": 1}, Controller: a},
				"c2@1": {Name: ptr("Graf Rats"), Power: ptr(3), Toughness: ptr(2), Counters: map[string]int{"+1/+1": 1}, Controller: a},
			},
		}))

	bd := chitteringHost(build.New("712.21c-false-demise",
		"A Chittering Host enchanted by False Demise dies; the Aura's ability returns both cards under its controller's control.", "712.21c", "730.3c", "704.5m"))
	bd.Card("f1", b, "False Demise")
	bd.Perm("p2", b, up("f1")).Mod("p2", func(p *model.Permanent) { p.AttachedTo = "p1" })
	add(bd.Do(model.Action{Type: model.Move, Object: "p1", To: model.Graveyard, Choices: order("c1", "c2")}).
		Expect(model.Expectation{
			Why:      "CR 712.21 and 704.5m: one creature dies; its two cards and then the unattached Aura go to graveyards",
			Triggers: map[model.Observer]int{model.CreatureDies: 1, model.CardToGraveyard: 3},
			Zones:    map[model.PlayerID]map[model.Zone][]model.ObjectID{a: {model.Graveyard: {"c1", "c2"}}, b: {model.Graveyard: {"f1"}}},
		}).
		Do(model.Action{Type: model.Return, Object: "p1", Player: b, Source: "p2", Choices: order("c2", "c1")}).
		Expect(model.Expectation{
			Why:         "CR 712.21c example: the triggered ability returns both Midnight Scavengers and Graf Rats",
			Battlefield: ptr(2),
			Permanents: map[model.ObjectID]model.PermanentClaim{
				"c1@1": {Controller: b, Name: ptr("Midnight Scavengers")},
				"c2@1": {Controller: b, Name: ptr("Graf Rats")},
			},
			Zones: map[model.PlayerID]map[model.Zone][]model.ObjectID{a: {model.Graveyard: nil}},
		}))

	for _, may := range []bool{true, false} {
		name := map[bool]string{true: "exiles-both", false: "exiles-neither"}[may]
		bd := chitteringHost(build.New("712.21c-mimic-vat-"+name,
			"Chittering Host dies with Mimic Vat out; its controller makes one choice for both cards.", "712.21c", "730.3c"))
		bd.Card("v1", a, "Mimic Vat")
		bd.Card("g1", b, "Grizzly Bears")
		bd.Perm("p2", a, up("v1")).Put(b, model.Exile, "g1").Link("p2", "g1")
		bd.Do(model.Action{Type: model.Move, Object: "p1", To: model.Graveyard, Choices: order("c1", "c2")})
		ch := model.Choices{May: ptr(may)}
		want := map[model.PlayerID]map[model.Zone][]model.ObjectID{a: {model.Graveyard: {"c1", "c2"}, model.Exile: nil}, b: {model.Exile: {"g1"}}}
		if may {
			ch.Order = []model.ObjectID{"c2", "c1"}
			want = map[model.PlayerID]map[model.Zone][]model.ObjectID{a: {model.Graveyard: nil, model.Exile: {"c2", "c1"}}, b: {model.Exile: nil, model.Graveyard: {"g1"}}}
		}
		add(bd.Do(model.Action{Type: model.ExileFound, Object: "p1", Source: "p2", Choices: ch}).
			Expect(model.Expectation{
				Why:   "CR 712.21c example: a single decision; both cards are exiled or neither is, and a yes returns the card exiled before",
				Zones: want,
			}))
	}

	for _, pick := range []struct {
		source model.ObjectID
		name   string
		zone   model.Zone
		want   []model.ObjectID
	}{{"p3", "wheel", model.Library, []model.ObjectID{"l1", "c2", "c1"}}, {"p2", "leyline", model.Exile, []model.ObjectID{"c2", "c1"}}} {
		bd := chitteringHost(build.New("712.21d-leyline-or-wheel-"+pick.name,
			"Leyline of the Void and Wheel of Sun and Moon both apply to Chittering Host dying; its controller picks one and both cards follow it.", "712.21d", "730.3d", "616.1"))
		bd.Card("l1", a, "Grizzly Bears")
		bd.Card("y1", b, "Leyline of the Void")
		bd.Card("w1", b, "Wheel of Sun and Moon")
		bd.Put(a, model.Library, "l1")
		bd.Perm("p2", b, up("y1")).Perm("p3", b, up("w1")).Mod("p3", func(p *model.Permanent) { p.EnchantedPlayer = a })
		claim := model.Expectation{
			Why:      "CR 712.21d example: one replacement effect, chosen by the player, applies to both cards",
			Triggers: map[model.Observer]int{model.CreatureDies: 0, model.CardToGraveyard: 0},
			Zones:    map[model.PlayerID]map[model.Zone][]model.ObjectID{a: {pick.zone: pick.want, model.Graveyard: nil}},
		}
		if pick.name == "wheel" {
			claim.Revealed = []model.ObjectID{"c1", "c2"}
		}
		add(bd.Do(model.Action{Type: model.Move, Object: "p1", To: model.Graveyard, Choices: model.Choices{Replacement: pick.source, Order: []model.ObjectID{"c2", "c1"}}}).Expect(claim))
	}

	bd = build.New("730.3-three-card-mutated-creature-dies",
		"A merged creature of three cards dies: one creature died and three cards went to a graveyard (mutate general notes).", "730.3", "730.3a")
	bd.Card("c1", a, "Gemrazer")
	bd.Card("c2", a, "Vulpikeet")
	bd.Card("c3", a, "Grizzly Bears")
	add(bd.Perm("p1", a, up("c1"), up("c2"), up("c3")).
		Do(model.Action{Type: model.Move, Object: "p1", To: model.Graveyard, Choices: order("c3", "c1", "c2")}).
		Expect(model.Expectation{
			Why:             "CR 730.3; official mutate notes: one creature died and three cards were put into a graveyard",
			Triggers:        map[model.Observer]int{model.CreatureDies: 1, model.NontokenCreatureDies: 1, model.CardToGraveyard: 3},
			LeftBattlefield: &model.Count{Objects: 1, Cards: 3},
			Zones:           map[model.PlayerID]map[model.Zone][]model.ObjectID{a: {model.Graveyard: {"c3", "c1", "c2"}}},
		}))

	for _, bear := range []string{"Runeclaw Bear", "Grizzly Bears"} {
		src := map[string]string{"Runeclaw Bear": "CR 110.5c example (September 2026)", "Grizzly Bears": "the 2008 status rules' example (seeds/)"}[bear]
		bd := build.New("110.5c-dimir-doppelganger-flip-chain-"+map[string]string{"Runeclaw Bear": "runeclaw", "Grizzly Bears": "grizzly"}[bear],
			"Dimir Doppelganger copies Jushi Apprentice, flips, copies a bear and keeps its flipped status, then copies Nezumi Shortfang and is Stabwhisker the Odious.",
			"110.5c", "707.3", "710.4")
		bd.Card("c1", a, "Dimir Doppelganger")
		bd.Card("j1", b, "Jushi Apprentice")
		bd.Card("r1", b, bear)
		bd.Card("n1", b, "Nezumi Shortfang")
		bd.Put(b, model.Graveyard, "j1", "r1", "n1").Perm("p1", a, up("c1"))
		dd := []model.AbilityID{model.CopyExceptThis}
		flippedStatus := &model.Status{Flipped: true}
		add(bd.Do(model.Action{Type: model.BecomeCopy, Object: "p1", Card: "j1", Gains: dd}).
			Expect(model.Expectation{Why: src, Permanents: map[model.ObjectID]model.PermanentClaim{"p1": {Name: ptr("Jushi Apprentice"), Abilities: dd}}}).
			Do(model.Action{Type: model.Flip, Object: "p1"}).
			Expect(model.Expectation{Why: src + ": it flips into a copy of Tomoya the Revealer with the Doppelganger's ability",
				Permanents: map[model.ObjectID]model.PermanentClaim{"p1": {Name: ptr("Tomoya the Revealer"), Power: ptr(2), Toughness: ptr(3), Status: flippedStatus, Abilities: dd}}}).
			Do(model.Action{Type: model.BecomeCopy, Object: "p1", Card: "r1", Gains: dd}).
			Expect(model.Expectation{Why: src + ": it keeps its flipped status though that no longer matters",
				Permanents: map[model.ObjectID]model.PermanentClaim{"p1": {Name: ptr(bear), Status: flippedStatus}}}).
			Do(model.Action{Type: model.BecomeCopy, Object: "p1", Card: "n1", Gains: dd}).
			Expect(model.Expectation{Why: src + ": flipped, a copy of Nezumi Shortfang has Stabwhisker the Odious's characteristics",
				Permanents: map[model.ObjectID]model.PermanentClaim{"p1": {Name: ptr("Stabwhisker the Odious"), Power: ptr(3), Toughness: ptr(3), Status: flippedStatus, Abilities: dd}}}))
	}

	bd = build.New("701.42c-scavengers-and-token-rats",
		"Midnight Scavengers and a token copy of Graf Rats are exiled but can't be melded: the card stays exiled and the token ceases to exist.", "701.42b", "701.42c", "704.5d")
	bd.Card("c1", a, "Midnight Scavengers")
	bd.Token("t1", a, "Graf Rats")
	add(bd.Perm("p1", a, up("c1")).Perm("p2", a, up("t1")).
		Do(model.Action{Type: model.Meld, Object: "p2", With: "p1"}).
		Expect(model.Expectation{
			Why:            "CR 701.42c example",
			NothingHappens: "701.42c",
			Battlefield:    ptr(0),
			Zones:          map[model.PlayerID]map[model.Zone][]model.ObjectID{a: {model.Exile: {"c1"}}},
		}))

	bd = build.New("701.42a-graf-rats-melds",
		"Graf Rats and Midnight Scavengers meld into Chittering Host, one permanent represented by two cards with both back faces up.", "701.42a", "712.14c", "712.8g")
	bd.Card("c1", a, "Midnight Scavengers")
	bd.Card("c2", a, "Graf Rats")
	add(bd.Perm("p1", a, up("c1")).Perm("p2", a, up("c2")).
		Do(model.Action{Type: model.Meld, Object: "p2", With: "p1"}).
		Expect(model.Expectation{
			Why:         "CR 701.42a, 712.14c, 712.8g: a 5/6 Chittering Host with mana value 7",
			Battlefield: ptr(1),
			Triggers:    map[model.Observer]int{model.CreatureEnters: 1},
			Permanents:  map[model.ObjectID]model.PermanentClaim{"c2@0": {Name: ptr("Chittering Host"), Power: ptr(5), Toughness: ptr(6), Components: []model.ObjectID{"c2", "c1"}}},
		}))

	bd = build.New("712.18-village-ironsmith-keeps-its-pump",
		"Village Ironsmith gets +2/+2 until end of turn and transforms into Ironfang, which still gets +2/+2.", "712.18")
	bd.Card("c1", a, "Village Ironsmith")
	add(bd.Perm("p1", a, up("c1")).
		Do(model.Action{Type: model.Pump, Object: "p1", Power: 2, Toughness: 2}).
		Do(model.Action{Type: model.Transform, Object: "p1"}).
		Expect(model.Expectation{Why: "CR 712.18 example", Permanents: map[model.ObjectID]model.PermanentClaim{"p1": {Name: ptr("Ironfang"), Power: ptr(5), Toughness: ptr(3)}}}))

	bd = build.New("707.2-token-copy-of-face-down-grinning-demon",
		"A copy of a face-down Grinning Demon is a face-up 2/2 creature with no name (CR 707.2 example, made with a token copy).", "707.2", "708.2")
	bd.Card("c1", a, "Grinning Demon")
	add(bd.Perm("p1", a, down("c1", model.ByMorph)).
		Do(model.Action{Type: model.TokenCopy, Object: "p1", Token: "t1", Player: a}).
		Expect(model.Expectation{Why: "CR 707.2 example", Permanents: map[model.ObjectID]model.PermanentClaim{
			"t1@0": {Name: ptr(""), Power: ptr(2), Toughness: ptr(2), Token: ptr(true), Status: &model.Status{}},
		}}))

	// The same for a permanent that entered face down during the run: the
	// copy of a manifested flip card is no flip card, however it was
	// printed.
	bd = build.New("707.2-token-copy-of-a-manifested-jushi-apprentice",
		"A copy of a manifested Jushi Apprentice is a face-up 2/2 creature with no name, not an unflipped flip card (CR 707.2, 701.40a).", "707.2", "701.40a", "710.2")
	bd.Card("c1", a, "Jushi Apprentice")
	add(bd.Put(a, model.Library, "c1").
		Do(model.Action{Type: model.Manifest, Object: "c1", Player: a, Method: "manifest"}).
		Do(model.Action{Type: model.TokenCopy, Object: "c1@0", Token: "t1", Player: a}).
		Expect(model.Expectation{Why: "CR 707.2: the copiable values of a face-down permanent are those of a 2/2 with no name", Permanents: map[model.ObjectID]model.PermanentClaim{
			"t1@1": {Name: ptr(""), Power: ptr(2), Toughness: ptr(2), Token: ptr(true), Status: &model.Status{}},
		}}))

	// A "whenever a creature you control mutates" ability, declared as a
	// triggered ability of the mutates observer, triggers when the
	// creature that has it mutates (official ruling on Essence Symbiote,
	// 2020-04-17), beside the mutating card's own.
	bd = build.New("702.140d-essence-symbiote-triggers-when-it-mutates",
		"Gemrazer mutates onto Essence Symbiote: Gemrazer's \"whenever this creature mutates\" and the Symbiote's \"whenever a creature you control mutates\" both trigger.", "702.140d", "702.140e")
	bd.Card("c1", a, "Essence Symbiote")
	bd.Card("c2", a, "Gemrazer")
	add(bd.Perm("p1", a, up("c1")).Put(a, model.Hand, "c2").
		Do(model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"}).
		Do(model.Action{Type: model.Resolve, Choices: model.Choices{Position: model.Top}}).
		Expect(model.Expectation{
			Why:      "CR 702.140d, 702.140e: the merged creature has both components' abilities, and each that triggers on its mutating does, the Symbiote's too (ruling of 2020-04-17)",
			Triggers: map[model.Observer]int{model.Mutates: 2},
		}))

	// The official general notes on mutate.
	bd = build.New("702.140c-mutate-over-a-tapped-creature",
		"Gemrazer mutates onto a tapped Grizzly Bears with a +1/+1 counter: same object, still tapped, counter kept, no creature entered.", "702.140c", "702.140d", "730.2a", "730.2c")
	bd.Card("c1", a, "Grizzly Bears")
	bd.Card("c2", a, "Gemrazer")
	add(bd.Perm("p1", a, up("c1")).Put(a, model.Hand, "c2").
		Mod("p1", func(p *model.Permanent) { p.Status.Tapped = true; p.Counters = map[string]int{"+1/+1": 1} }).
		Do(model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"}).
		Do(model.Action{Type: model.Resolve, Choices: model.Choices{Position: model.Top}}).
		Expect(model.Expectation{
			Why:         "mutate notes: the merged creature is the same creature, keeps counters and tapped status; enters abilities don't trigger",
			Battlefield: ptr(1),
			Triggers:    map[model.Observer]int{model.CreatureEnters: 0, model.PermanentEnters: 0, model.Mutates: 1},
			Permanents: map[model.ObjectID]model.PermanentClaim{"p1": {
				Components: []model.ObjectID{"c2", "c1"}, Name: ptr("Gemrazer"), Power: ptr(5), Toughness: ptr(5),
				Status: &model.Status{Tapped: true}, Counters: map[string]int{"+1/+1": 1},
			}},
		}))

	bd = build.New("702.140e-mutate-under",
		"Vulpikeet mutates under Grizzly Bears: a 2/2 Grizzly Bears with flying whose mutate trigger, on the bottom card, still triggers.", "702.140e", "702.140d")
	bd.Card("c1", a, "Grizzly Bears")
	bd.Card("c2", a, "Vulpikeet")
	add(bd.Perm("p1", a, up("c1")).Put(a, model.Hand, "c2").
		Do(model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"}).
		Do(model.Action{Type: model.Resolve, Choices: model.Choices{Position: model.Bottom}}).
		Expect(model.Expectation{
			Why:      "CR 702.140e; mutate notes: top card's characteristics, every card's abilities, and a mutate trigger from either card",
			Triggers: map[model.Observer]int{model.Mutates: 1, model.CreatureEnters: 0},
			Permanents: map[model.ObjectID]model.PermanentClaim{"p1": {
				Components: []model.ObjectID{"c1", "c2"}, Name: ptr("Grizzly Bears"), Power: ptr(2), Toughness: ptr(2),
				Abilities: []model.AbilityID{"flying", model.Mutate, model.OnMutate},
			}},
		}))

	bd = build.New("702.140b-mutate-target-gone",
		"Gemrazer's target dies before it resolves: it resolves as a creature spell and enters on its own; nothing mutates.", "702.140b")
	bd.Card("c1", a, "Grizzly Bears")
	bd.Card("c2", a, "Gemrazer")
	add(bd.Perm("p1", a, up("c1")).Put(a, model.Hand, "c2").
		Do(model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"}).
		Do(model.Action{Type: model.Move, Object: "p1", To: model.Graveyard}).
		Do(model.Action{Type: model.Resolve}).
		Expect(model.Expectation{
			Why:            "CR 702.140b; mutate notes: it enters the battlefield and enters abilities trigger; no mutate trigger",
			NothingHappens: "702.140b",
			Battlefield:    ptr(1),
			Triggers:       map[model.Observer]int{model.CreatureEnters: 1, model.Mutates: 0},
			Permanents:     map[model.ObjectID]model.PermanentClaim{"c2@2": {Name: ptr("Gemrazer"), Components: []model.ObjectID{"c2"}}},
		}))

	bd = build.New("730.2e-mutate-over-a-face-down-creature",
		"A face-up Gemrazer mutates onto a manifested Grizzly Bears: the permanent is face up, but it was not turned face up.", "730.2e")
	bd.Card("c1", a, "Grizzly Bears")
	bd.Card("c2", a, "Gemrazer")
	add(bd.Perm("p1", a, down("c1", model.ByManifest)).Put(a, model.Hand, "c2").
		Do(model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"}).
		Do(model.Action{Type: model.Resolve, Choices: model.Choices{Position: model.Top}}).
		Expect(model.Expectation{
			Why:        "CR 730.2e: status from the topmost component; becoming face up by merging is not turning face up",
			Triggers:   map[model.Observer]int{model.TurnedFaceUp: 0, model.Mutates: 1},
			Permanents: map[model.ObjectID]model.PermanentClaim{"p1": {Name: ptr("Gemrazer"), Status: &model.Status{}}},
		}))

	bd = build.New("730.2e-mutate-under-a-face-down-creature",
		"Gemrazer mutates under a face-down creature: it stays a face-down 2/2 (mutate notes).", "730.2e")
	bd.Card("c1", a, "Grinning Demon")
	bd.Card("c2", a, "Gemrazer")
	add(bd.Perm("p1", a, down("c1", model.ByMorph)).Put(a, model.Hand, "c2").
		Do(model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"}).
		Do(model.Action{Type: model.Resolve, Choices: model.Choices{Position: model.Bottom}}).
		Expect(model.Expectation{
			Why:        "mutate notes: a face-down topmost object makes a face-down creature, a 2/2 with no name or abilities",
			Triggers:   map[model.Observer]int{model.Mutates: 0},
			Permanents: map[model.ObjectID]model.PermanentClaim{"p1": {Name: ptr(""), Power: ptr(2), Toughness: ptr(2), Status: &model.Status{FaceDown: true}}},
		}))

	bd = build.New("730.2f-merged-turned-face-down-then-up",
		"A mutated Gemrazer over Grizzly Bears is turned face down (every component turns) and face up again (every component turns back).", "730.2f", "708.2a", "613.7f")
	bd.Card("c1", a, "Gemrazer")
	bd.Card("c2", a, "Grizzly Bears")
	add(bd.Perm("p1", a, up("c1"), up("c2")).
		Do(model.Action{Type: model.TurnFaceDown, Object: "p1"}).
		Expect(model.Expectation{Why: "CR 730.2f, 708.2a: one permanent turned face down", Triggers: map[model.Observer]int{model.TurnedFaceDown: 1}, Permanents: map[model.ObjectID]model.PermanentClaim{"p1": {Name: ptr(""), Power: ptr(2), Toughness: ptr(2), Status: &model.Status{FaceDown: true}}}}).
		Do(model.Action{Type: model.TurnFaceUp, Object: "p1"}).
		Expect(model.Expectation{Why: "CR 730.2f", Triggers: map[model.Observer]int{model.TurnedFaceUp: 1},
			Permanents: map[model.ObjectID]model.PermanentClaim{"p1": {Name: ptr("Gemrazer"), Power: ptr(4), Status: &model.Status{}}}}))

	bd = build.New("730.2g-face-down-merged-with-an-instant",
		"A face-down merged permanent holding a manifested Lightning Bolt would turn face up: it is revealed and stays face down.", "730.2g")
	bd.Card("c1", a, "Gemrazer")
	bd.Card("c2", a, "Lightning Bolt")
	add(bd.Perm("p1", a, down("c1", model.ByEffect), down("c2", model.ByManifest)).
		Do(model.Action{Type: model.TurnFaceUp, Object: "p1"}).
		Expect(model.Expectation{
			Why:            "CR 730.2g: revealed, left face down, and turned-face-up abilities don't trigger",
			NothingHappens: "730.2g",
			Revealed:       []model.ObjectID{"c1", "c2"},
			Triggers:       map[model.Observer]int{model.TurnedFaceUp: 0},
			Permanents:     map[model.ObjectID]model.PermanentClaim{"p1": {Status: &model.Status{FaceDown: true}}},
		}))

	bd = build.New("730.2j-merged-with-a-double-faced-card-cant-turn-face-down",
		"Turning face down a face-up merged permanent with Delver of Secrets in it does nothing.", "730.2j")
	bd.Card("c1", a, "Gemrazer")
	bd.Card("c2", a, "Delver of Secrets")
	add(bd.Perm("p1", a, up("c1"), up("c2")).
		Do(model.Action{Type: model.TurnFaceDown, Object: "p1"}).
		Expect(model.Expectation{Why: "CR 730.2j", NothingHappens: "730.2j",
			Permanents: map[model.ObjectID]model.PermanentClaim{"p1": {Name: ptr("Gemrazer"), Status: &model.Status{}}}}))

	bd = build.New("730.2h-flipped-merged-permanent",
		"Jushi Apprentice on top of a mutated permanent flips: the permanent is Tomoya the Revealer with the other card's abilities.", "730.2h", "710.1c")
	bd.Card("c1", a, "Jushi Apprentice")
	bd.Card("c2", a, "Gemrazer")
	add(bd.Perm("p1", a, up("c1"), up("c2")).
		Do(model.Action{Type: model.Flip, Object: "p1"}).
		Expect(model.Expectation{Why: "CR 730.2h", Permanents: map[model.ObjectID]model.PermanentClaim{"p1": {
			Name: ptr("Tomoya the Revealer"), Power: ptr(2), Toughness: ptr(3), Status: &model.Status{Flipped: true}, Abilities: []model.AbilityID{"trample", "reach"}}}}))

	bd = build.New("730.2i-transform-a-merged-permanent",
		"Transforming a merged permanent turns its Delver of Secrets over; its meld card can't turn; it is never a transformed permanent.", "730.2i", "712.4c", "701.27g")
	bd.Card("c1", a, "Gemrazer")
	bd.Card("c2", a, "Delver of Secrets")
	bd.Card("c3", a, "Graf Rats")
	add(bd.Perm("p1", a, up("c1"), up("c2"), up("c3")).
		Do(model.Action{Type: model.Transform, Object: "p1"}).
		Expect(model.Expectation{Why: "CR 730.2i", Permanents: map[model.ObjectID]model.PermanentClaim{"p1": {Name: ptr("Gemrazer"), Abilities: []model.AbilityID{"flying"}}}}))

	for _, top := range []string{"token", "card"} {
		bd := build.New("730.3e-leyline-and-a-"+top+"-on-top",
			"Leyline of the Void (a card-only replacement) meets a merged permanent of a Beast token and Gemrazer with the "+top+" on top.", "730.3e", "730.2d")
		bd.Card("c1", a, "Gemrazer")
		bd.Token("t1", a, "Beast Token")
		bd.Card("y1", b, "Leyline of the Void")
		comps := []model.Component{up("t1"), up("c1")}
		claim := model.Expectation{
			Why:      "CR 730.3e: a token merged permanent and its token components go to the graveyard, the cards are exiled",
			Triggers: map[model.Observer]int{model.CreatureDies: 1, model.CardToGraveyard: 0},
			Zones:    map[model.PlayerID]map[model.Zone][]model.ObjectID{a: {model.Exile: {"c1"}, model.Graveyard: nil}},
		}
		if top == "card" {
			comps[0], comps[1] = comps[1], comps[0]
			claim.Why = "CR 730.3e: a nontoken merged permanent is exiled whole, its token component too"
			claim.Triggers = map[model.Observer]int{model.CreatureDies: 0, model.CardToGraveyard: 0}
		}
		add(bd.Perm("p1", a, comps...).Perm("p2", b, up("y1")).
			Do(model.Action{Type: model.Move, Object: "p1", To: model.Graveyard}).Expect(claim))
	}

	bd = build.New("903.9c-merged-commander-to-hand",
		"A merged permanent with Nethroi, a commander, under Gemrazer is returned to hand; its owner sends the commander card to the command zone.", "903.9b", "903.9c", "903.3c")
	bd.Card("c1", a, "Gemrazer")
	bd.Commander("k1", a, "Nethroi, Apex of Death")
	add(bd.Perm("p1", a, up("c1"), up("k1")).
		Do(model.Action{Type: model.Move, Object: "p1", To: model.Hand, Choices: model.Choices{CommandZone: ptr(true)}}).
		Expect(model.Expectation{Why: "CR 903.9c", Zones: map[model.PlayerID]map[model.Zone][]model.ObjectID{a: {model.Hand: {"c1"}, model.Command: {"k1"}}}}))

	bd = build.New("730.3a-merged-to-library-bottom",
		"A merged permanent put on the bottom of its owner's library: its owner orders the cards, which go together.", "730.3a")
	bd.Card("c1", a, "Gemrazer")
	bd.Card("c2", a, "Grizzly Bears")
	bd.Card("l1", a, "Runeclaw Bear")
	add(bd.Perm("p1", a, up("c1"), up("c2")).Put(a, model.Library, "l1").
		Do(model.Action{Type: model.Move, Object: "p1", To: model.LibraryBottom, Choices: order("c2", "c1")}).
		Expect(model.Expectation{Why: "CR 730.3a", Zones: map[model.PlayerID]map[model.Zone][]model.ObjectID{a: {model.Library: {"l1", "c2", "c1"}}}}))

	bd = build.New("730.2d-merged-creature-topped-by-a-token-dies",
		"A Beast token merged on top of Gemrazer dies: one creature died, and it was a token, so no nontoken creature died; the card still goes to the graveyard.", "730.2d", "730.3")
	bd.Card("c1", a, "Gemrazer")
	bd.Token("t1", a, "Beast Token")
	add(bd.Perm("p1", a, up("t1"), up("c1")).
		Do(model.Action{Type: model.Move, Object: "p1", To: model.Graveyard}).
		Expect(model.Expectation{
			Why:      "CR 730.2d: a merged permanent is a token exactly when its topmost component is",
			Triggers: map[model.Observer]int{model.CreatureDies: 1, model.NontokenCreatureDies: 0, model.CardToGraveyard: 1},
			Zones:    map[model.PlayerID]map[model.Zone][]model.ObjectID{a: {model.Graveyard: {"c1"}}},
		}))

	bd = build.New("730.3c-flicker-a-merged-creature",
		"A merged creature of two cards and a token is exiled and returned: the two cards return as separate permanents, the token doesn't.", "730.3c", "111.8")
	bd.Card("c1", a, "Gemrazer")
	bd.Card("c2", a, "Vulpikeet")
	bd.Token("t1", a, "Beast Token")
	add(bd.Perm("p1", a, up("c1"), up("t1"), up("c2")).
		Do(model.Action{Type: model.Move, Object: "p1", To: model.Exile, Choices: order("c1", "c2")}).
		Do(model.Action{Type: model.Return, Object: "p1", Counters: map[string]int{"+1/+1": 1}, Choices: order("c2", "c1")}).
		Expect(model.Expectation{Why: "mutate notes: the individual cards each return, no longer merged; the rider applies to each",
			Battlefield: ptr(2), Triggers: map[model.Observer]int{model.CreatureEnters: 2},
			Permanents: map[model.ObjectID]model.PermanentClaim{"c1@1": {Counters: map[string]int{"+1/+1": 1}}, "c2@1": {Counters: map[string]int{"+1/+1": 1}}}}))

	bd = build.New("702.26d-phasing-a-merged-permanent",
		"A merged permanent with a token on top phases out and in: no zone change, the token still exists, counters stay.", "702.26d", "702.26b", "702.26c")
	bd.Card("c1", a, "Gemrazer")
	bd.Token("t1", a, "Beast Token")
	add(bd.Perm("p1", a, up("t1"), up("c1")).Mod("p1", func(p *model.Permanent) { p.Counters = map[string]int{"+1/+1": 2} }).
		Do(model.Action{Type: model.PhaseOut, Object: "p1"}).
		Expect(model.Expectation{Why: "CR 702.26d", LeftBattlefield: &model.Count{}, Battlefield: ptr(1),
			Permanents: map[model.ObjectID]model.PermanentClaim{"p1": {Status: &model.Status{PhasedOut: true}, Counters: map[string]int{"+1/+1": 2}, Components: []model.ObjectID{"t1", "c1"}}}}).
		Do(model.Action{Type: model.PhaseIn, Object: "p1"}).
		Expect(model.Expectation{Why: "CR 702.26c-d", Permanents: map[model.ObjectID]model.PermanentClaim{"p1": {Status: &model.Status{}, Token: ptr(true), Power: ptr(5)}}}))

	bd = build.New("502.3-a-tapped-aura-phases-in-and-untaps",
		"A's Grizzly Bears, enchanted by A's tapped False Demise, merges with Gemrazer and phases out; the Aura phases out with it. In A's next untap step both phase in, then untap.", "502.1", "502.3", "702.26g")
	bd.Card("c1", a, "Grizzly Bears")
	bd.Card("c2", a, "Gemrazer")
	bd.Card("c3", a, "False Demise")
	add(bd.Perm("p1", a, up("c2"), up("c1")).Perm("p2", a, up("c3")).
		Mod("p2", func(p *model.Permanent) { p.AttachedTo, p.Status.Tapped = "p1", true }).
		Do(model.Action{Type: model.PhaseOut, Object: "p1"}).
		Expect(model.Expectation{Why: "CR 702.26g: an Aura phases out with the permanent it is attached to, and keeps its status (110.5c)",
			Permanents: map[model.ObjectID]model.PermanentClaim{"p1": {Status: &model.Status{PhasedOut: true}}, "p2": {Status: &model.Status{Tapped: true, PhasedOut: true}}}}).
		Do(model.Action{Type: model.NextTurn}).
		Expect(model.Expectation{Why: "CR 502.1: B's untap step phases in only what B controlled",
			Permanents: map[model.ObjectID]model.PermanentClaim{"p2": {Status: &model.Status{Tapped: true, PhasedOut: true}}}}).
		Do(model.Action{Type: model.NextTurn}).
		Expect(model.Expectation{Why: "CR 502.1, 502.3: in A's untap step the merged creature and its Aura phase in, then A untaps them",
			Permanents: map[model.ObjectID]model.PermanentClaim{"p1": {Status: &model.Status{}}, "p2": {Status: &model.Status{}, AttachedTo: ptr(model.ObjectID("p1"))}}}))

	// Answers the rulings give that the reference once got wrong, each a
	// class of bug (issue 11).
	bd = build.New("707.2-token-copy-of-a-merged-permanent",
		"A token copy of Gemrazer merged onto Grizzly Bears copies the topmost component, mana cost and all: a 4/4 green Gemrazer of mana value 4.", "707.2", "730.2a", "202.3")
	bd.Card("c1", a, "Gemrazer")
	bd.Card("c2", a, "Grizzly Bears")
	add(bd.Perm("p1", a, up("c1"), up("c2")).
		Do(model.Action{Type: model.TokenCopy, Object: "p1", Token: "t1", Player: a}).
		Expect(model.Expectation{Why: "CR 707.2, 730.2a: the copiable values are the topmost component's, its mana cost among them", Permanents: map[model.ObjectID]model.PermanentClaim{
			"t1@0": {Name: ptr("Gemrazer"), ManaValue: ptr(4), Colors: &[]model.Color{model.Green}, Power: ptr(4), Toughness: ptr(4), Token: ptr(true),
				AbilitiesExactly: &[]model.AbilityID{"mutate", "on_mutate", "reach", "trample"}},
		}}))

	for _, face := range []struct {
		name     string
		comp     model.Component
		mv       int
		cardName string
		why      string
	}{
		{"front", up("c1"), 2, "Village Ironsmith", "CR 707.2, 202.3: the front face's mana cost is copied"},
		{"back", back("c1"), 0, "Ironfang", "CR 707.8a, 712.8e: a copy of a back face has no mana cost, so mana value 0"},
	} {
		bd = build.New("707.8-token-copy-of-a-double-faced-permanent-"+face.name+"-up",
			"A token copy of Village Ironsmith with its "+face.name+" face up copies that face: "+face.cardName+", mana value "+strconv.Itoa(face.mv)+".", "707.8a", "712.8e", "202.3b")
		bd.Card("c1", a, "Village Ironsmith")
		add(bd.Perm("p1", a, face.comp).
			Do(model.Action{Type: model.TokenCopy, Object: "p1", Token: "t1", Player: a}).
			Expect(model.Expectation{Why: face.why, Permanents: map[model.ObjectID]model.PermanentClaim{
				"t1@0": {Name: ptr(face.cardName), ManaValue: ptr(face.mv), Colors: &[]model.Color{model.Red}, Token: ptr(true)},
			}}))
	}

	bd = build.New("704.5n-equipment-stays-when-its-creature-leaves",
		"Lightning Greaves equips a Grizzly Bears that dies: the Equipment stays on the battlefield, unattached; it is not an Aura.", "704.5n", "301.5c")
	bd.Card("c1", a, "Grizzly Bears")
	bd.Card("g1", a, "Lightning Greaves")
	add(bd.Perm("p1", a, up("c1")).Perm("p2", a, up("g1")).Mod("p2", func(p *model.Permanent) { p.AttachedTo = "p1" }).
		Do(model.Action{Type: model.Move, Object: "p1", To: model.Graveyard}).
		Expect(model.Expectation{Why: "CR 704.5n: an Equipment attached to nothing becomes unattached and remains on the battlefield",
			Battlefield: ptr(1), Permanents: map[model.ObjectID]model.PermanentClaim{"p2": {AttachedTo: ptr(model.ObjectID(""))}},
			Zones: map[model.PlayerID]map[model.Zone][]model.ObjectID{a: {model.Graveyard: {"c1"}}}}))

	bd = build.New("122.1b-a-flying-counter-gives-flying",
		"A flying counter put on Grizzly Bears gives it flying; a +1/+1 counter gives it no ability.", "122.1b")
	bd.Card("c1", a, "Grizzly Bears")
	add(bd.Perm("p1", a, up("c1")).
		Do(model.Action{Type: model.AddCounters, Object: "p1", Counter: "flying", N: 1}).
		Expect(model.Expectation{Why: "CR 122.1b: a keyword counter gives its keyword", Permanents: map[model.ObjectID]model.PermanentClaim{
			"p1": {AbilitiesExactly: &[]model.AbilityID{"flying"}, Counters: map[string]int{"flying": 1}, Power: ptr(2)}}}))

	bd = build.New("704.3-aura-goes-when-its-creature-melds",
		"False Demise enchants Midnight Scavengers, which melds with Graf Rats: the permanent it enchanted is gone, so the Aura goes to the graveyard right after the meld.", "704.3", "704.5m", "701.42a")
	bd.Card("c1", a, "Midnight Scavengers")
	bd.Card("c2", a, "Graf Rats")
	bd.Card("f1", a, "False Demise")
	add(bd.Perm("p1", a, up("c1")).Perm("p2", a, up("c2")).Perm("p3", a, up("f1")).Mod("p3", func(p *model.Permanent) { p.AttachedTo = "p1" }).
		Do(model.Action{Type: model.Meld, Object: "p2", With: "p1"}).
		Expect(model.Expectation{Why: "CR 704.3, 704.5m: state-based actions are checked after every action, the meld's too",
			Battlefield: ptr(1), Permanents: map[model.ObjectID]model.PermanentClaim{"p3": {Absent: true}},
			Zones: map[model.PlayerID]map[model.Zone][]model.ObjectID{a: {model.Graveyard: {"f1"}}}}))

	bd = build.New("400.4a-an-instant-that-was-face-down-does-not-return",
		"A manifested Lightning Bolt is exiled, then returned: an instant card can't enter the battlefield, so it stays in exile.", "400.4a", "708.2")
	bd.Card("c1", a, "Lightning Bolt")
	add(bd.Perm("p1", a, down("c1", model.ByManifest)).
		Do(model.Action{Type: model.Move, Object: "p1", To: model.Exile}).
		Do(model.Action{Type: model.Return, Object: "p1"}).
		Expect(model.Expectation{Why: "CR 400.4a: an instant card that would enter the battlefield stays where it was",
			Battlefield: ptr(0), Triggers: map[model.Observer]int{model.CreatureEnters: 0},
			Zones: map[model.PlayerID]map[model.Zone][]model.ObjectID{a: {model.Exile: {"c1"}}}}))

	bd = build.New("204-chittering-host-is-colourless",
		"Graf Rats and Midnight Scavengers meld: Chittering Host has no mana cost and no colour indicator, so it is colourless, with mana value 7.", "202.2b", "204.2", "712.8g")
	bd.Card("c1", a, "Midnight Scavengers")
	bd.Card("c2", a, "Graf Rats")
	add(bd.Perm("p1", a, up("c1")).Perm("p2", a, up("c2")).
		Do(model.Action{Type: model.Meld, Object: "p2", With: "p1"}).
		Expect(model.Expectation{Why: "CR 202.2b, 204.2, 712.8g", NoReveal: true, Permanents: map[model.ObjectID]model.PermanentClaim{
			"c2@0": {Name: ptr("Chittering Host"), Colors: &[]model.Color{}, ManaValue: ptr(7), Types: &[]string{"creature"}, Subtypes: &[]string{"Eldrazi", "Horror"},
				Faces: []model.FaceClaim{{Object: "c2", Face: model.Back}, {Object: "c1", Face: model.Back}}, Lacks: []model.AbilityID{"meld_graf_rats"}}}}))

	// The actions of issue 11: creating a token, entering as a copy,
	// attacking, destroying every creature, melding a pair that is gone,
	// and an action the rules forbid.
	type zones = map[model.PlayerID]map[model.Zone][]model.ObjectID
	type perms = map[model.ObjectID]model.PermanentClaim
	type triggers = map[model.Observer]int

	bd = build.New("111.2-created-token-under-a-mutating-card",
		"A Saproling token is created, then Gemrazer mutates under it: the merged creature is a token, as its topmost component is.", "111.2", "730.2d", "702.140c")
	bd.Def("Saproling Token")
	bd.Card("c1", a, "Gemrazer")
	add(bd.Put(a, model.Hand, "c1").
		Do(model.Action{Type: model.CreateToken, Token: "t1", Def: "Saproling Token", Player: a}).
		Expect(model.Expectation{Why: "CR 111.1, 111.2: the creator owns and controls the token, which enters",
			Triggers:   triggers{model.CreatureEnters: 1, model.PermanentEnters: 1},
			Permanents: perms{"t1@0": {Token: ptr(true), Controller: a, Name: ptr("Saproling Token"), ControlledSinceTurnStart: ptr(false)}}}).
		Do(model.Action{Type: model.CastMutate, Object: "c1", Target: "t1@0"}, model.Action{Type: model.Resolve, Choices: model.Choices{Position: model.Bottom}}).
		Expect(model.Expectation{Why: "CR 730.2d: a token, since its topmost component is one",
			Permanents: perms{"t1@0": {Token: ptr(true), Components: []model.ObjectID{"t1", "c1"}, Power: ptr(1), Abilities: []model.AbilityID{"reach", "trample"}}}}))

	bd = build.New("707.5-clone-copies-a-mutated-creature",
		"Clone enters as a copy of Gemrazer mutated over Wall of Omens: it has the merged creature's copiable values, every component's abilities among them, and is one card.", "707.5", "707.2", "730.2a", "702.140e")
	bd.Card("c1", a, "Wall of Omens")
	bd.Card("c2", a, "Gemrazer")
	bd.Card("k1", a, "Clone")
	add(bd.Perm("p1", a, up("c2"), up("c1")).Put(a, model.Hand, "k1").
		Do(model.Action{Type: model.EnterAsCopy, Object: "k1", Target: "p1"}).
		Expect(model.Expectation{Why: "CR 707.5 and the mutate notes: the combined characteristics are copiable",
			Triggers: triggers{model.CreatureEnters: 1, model.PermanentEnters: 1},
			Permanents: perms{"k1@0": {Name: ptr("Gemrazer"), Power: ptr(4), Toughness: ptr(4), ManaValue: ptr(4), Token: ptr(false),
				Components:       []model.ObjectID{"k1"},
				AbilitiesExactly: &[]model.AbilityID{"defender", "etb_draw", "mutate", "on_mutate", "reach", "trample"}}}}).
		Do(model.Action{Type: model.Move, Object: "k1@0", To: model.Graveyard}).
		Expect(model.Expectation{Why: "it dies as one creature, a nontoken one, and its card goes to the graveyard",
			Triggers: triggers{model.CreatureDies: 1, model.NontokenCreatureDies: 1, model.CardToGraveyard: 1},
			Zones:    zones{a: {model.Graveyard: {"k1"}}}}))

	bd = build.New("707.2-clone-copies-a-face-down-creature",
		"Clone enters as a copy of a face-down Exalted Angel: it copies the face-down values, a nameless 2/2 creature with no mana cost, and is face up.", "707.5", "707.2", "708.2")
	bd.Card("c1", a, "Exalted Angel")
	bd.Card("k1", a, "Clone")
	add(bd.Perm("p1", a, down("c1", model.ByMorph)).Put(a, model.Hand, "k1").
		Do(model.Action{Type: model.EnterAsCopy, Object: "k1", Target: "p1"}).
		Expect(model.Expectation{Why: "CR 707.2: face-down status modifies the copiable values",
			Permanents: perms{"k1@0": {Name: ptr(""), Power: ptr(2), Toughness: ptr(2), ManaValue: ptr(0), Colors: &[]model.Color{},
				Types: &[]string{"creature"}, AbilitiesExactly: &[]model.AbilityID{},
				Faces: []model.FaceClaim{{Object: "k1"}}}}}))

	bd = build.New("712.8e-clone-copies-a-transformed-permanent",
		"Clone enters as a copy of Insectile Aberration, Delver of Secrets transformed: it copies the back face, with mana value 0 and the colour of the colour indicator.", "707.8", "712.8e", "204.2")
	bd.Card("c1", a, "Delver of Secrets")
	bd.Card("k1", a, "Clone")
	add(bd.Perm("p1", a, back("c1")).Put(a, model.Hand, "k1").
		Do(model.Action{Type: model.EnterAsCopy, Object: "k1", Target: "p1"}).
		Expect(model.Expectation{Why: "CR 707.8, 712.8e: the face that is up, and a copy of a back face has mana value 0",
			Permanents: perms{"k1@0": {Name: ptr("Insectile Aberration"), Power: ptr(3), Toughness: ptr(2), ManaValue: ptr(0),
				Colors: &[]model.Color{model.Blue}, Abilities: []model.AbilityID{"flying"}}}}))

	bd = build.New("707.3-clone-of-a-flipped-akki-lavarunner-is-unflipped",
		"Clone enters as a copy of Tok-Tok, Volcano Born, a flipped Akki Lavarunner: the copy takes the flip card as modified by its own status, and it enters unflipped, so it is Akki Lavarunner.", "707.3", "110.5b", "710.2")
	bd.Card("c1", a, "Akki Lavarunner")
	bd.Card("k1", a, "Clone")
	add(bd.Perm("p1", a, up("c1")).Mod("p1", func(p *model.Permanent) { p.Status.Flipped = true }).Put(a, model.Hand, "k1").
		Do(model.Action{Type: model.EnterAsCopy, Object: "k1", Target: "p1"}).
		Expect(model.Expectation{Why: "CR 707.3 (the flip-card example), 110.5b: the copy is unflipped; CR 710.2: an unflipped flip card has its normal characteristics",
			Permanents: perms{"k1@0": {Status: &model.Status{}, Name: ptr("Akki Lavarunner"), Power: ptr(1), Toughness: ptr(1),
				Colors: &[]model.Color{model.Red}, AbilitiesExactly: &[]model.AbilityID{"flip_akki_lavarunner", "haste"}}}}))

	bd = build.New("110.5c-clone-of-a-flipped-insectile-aberration-copies-its-back-face",
		"Clone enters as a copy of Insectile Aberration, Delver of Secrets transformed, which kept a flipped status from a copy effect that has ended: the status is not relevant to a card that is not a flip card, so the copy takes the face that is up.", "110.5c", "707.8", "712.8e")
	bd.Card("c1", a, "Delver of Secrets")
	bd.Card("k1", a, "Clone")
	add(bd.Perm("p1", a, back("c1")).Mod("p1", func(p *model.Permanent) { p.Status.Flipped = true }).Put(a, model.Hand, "k1").
		Do(model.Action{Type: model.EnterAsCopy, Object: "k1", Target: "p1"}).
		Expect(model.Expectation{Why: "CR 110.5c: the flipped status is kept but not relevant; CR 707.8, 712.8e: the face that is up, with mana value 0; CR 110.5b: the copy enters unflipped",
			Permanents: perms{"k1@0": {Status: &model.Status{}, Name: ptr("Insectile Aberration"), Power: ptr(3), Toughness: ptr(2), ManaValue: ptr(0),
				AbilitiesExactly: &[]model.AbilityID{"flying"}}}}))

	bd = build.New("701.58a-a-cloaked-card-under-a-mutated-creature-gives-ward",
		"Gemrazer mutates onto a cloaked Grizzly Bears, on top: the merged creature is face up, and the cloaked card under it still has ward {2}, which it adds to the merged creature's abilities.", "701.58a", "702.140e", "730.2e")
	bd.Card("c1", a, "Grizzly Bears")
	bd.Card("c2", a, "Gemrazer")
	add(bd.Perm("p1", a, down("c1", model.ByCloak)).Put(a, model.Hand, "c2").
		Do(model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"}, model.Action{Type: model.Resolve, Choices: model.Choices{Position: model.Top}}).
		Expect(model.Expectation{Why: "CR 701.58a: the cloak effect gives the face-down card ward {2} while it is face down; CR 702.140e: the mutated creature has each card's abilities",
			Permanents: perms{"p1": {Status: &model.Status{}, Name: ptr("Gemrazer"),
				AbilitiesExactly: &[]model.AbilityID{"mutate", "on_mutate", "reach", "trample", "ward_2"}}}}))

	bd = build.New("707.2-a-mutated-creature-becomes-a-copy",
		"Gemrazer, mutated onto Dimir Doppelganger, uses the Doppelganger's ability: it exiles Runeclaw Bear and becomes a copy of it, except it has that ability. The copy's name, mana value, colour, types, power and toughness are settled; whether Gemrazer's abilities survive the copy is not, and the scenario claims nothing of them.", "707.2", "613.2a", "730.2a", "702.140e")
	bd.Card("c1", a, "Dimir Doppelganger")
	bd.Card("c2", a, "Gemrazer")
	bd.Card("r1", b, "Runeclaw Bear")
	add(bd.Perm("p1", a, up("c2"), up("c1")).Put(b, model.Graveyard, "r1").
		Do(model.Action{Type: model.BecomeCopy, Object: "p1", Card: "r1", Gains: []model.AbilityID{model.CopyExceptThis}}).
		Expect(model.Expectation{Why: "CR 613.2a: the copy effect, later than the merge, sets the copiable values; CR 707.2: those of Runeclaw Bear",
			Permanents: perms{"p1": {Name: ptr("Runeclaw Bear"), ManaValue: ptr(2), Power: ptr(2), Toughness: ptr(2),
				Colors: &[]model.Color{model.Green}, Types: &[]string{"creature"}, Subtypes: &[]string{"Bear"}}}}))

	bd = build.New("613.2a-dimir-doppelganger-copies-then-gemrazer-mutates-on-top",
		"Dimir Doppelganger exiles Runeclaw Bear and becomes a copy of it, except it has the Doppelganger's ability; then Gemrazer mutates onto it, on top. The mutate notes: a copy that mutates takes what mutating gives after the copy effect, so the merged creature has Gemrazer's name, mana value, colour, types, power and toughness. Whether the Doppelganger card gives the Bear's abilities, its own or both (702.140e) is not settled, and the scenario claims nothing of them.", "613.2a", "730.2a", "702.140e", "707.2")
	bd.Card("c1", a, "Dimir Doppelganger")
	bd.Card("c2", a, "Gemrazer")
	bd.Card("r1", b, "Runeclaw Bear")
	add(bd.Perm("p1", a, up("c1")).Put(a, model.Hand, "c2").Put(b, model.Graveyard, "r1").
		Do(model.Action{Type: model.BecomeCopy, Object: "p1", Card: "r1", Gains: []model.AbilityID{model.CopyExceptThis}}).
		Expect(model.Expectation{Why: "CR 707.2: the copy effect gives Runeclaw Bear's copiable values",
			Permanents: perms{"p1": {Name: ptr("Runeclaw Bear"), ManaValue: ptr(2)}}}).
		Do(model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"}, model.Action{Type: model.Resolve, Choices: model.Choices{Position: model.Top}}).
		Expect(model.Expectation{Why: "CR 613.2a, 730.2a and the mutate notes: the merge, later than the copy effect, gives the topmost card's characteristics",
			Permanents: perms{"p1": {Name: ptr("Gemrazer"), ManaValue: ptr(4), Power: ptr(4), Toughness: ptr(4),
				Colors: &[]model.Color{model.Green}, Types: &[]string{"creature"}, Subtypes: &[]string{"Beast"}}}}))

	bd = build.New("302.6-creature-cast-this-turn-cannot-attack",
		"Grizzly Bears is cast and resolves, then is declared an attacker: it has not been under its controller's control since the turn began, so it can't attack.", "302.6", "508.1a")
	bd.Card("c1", a, "Grizzly Bears")
	add(bd.Put(a, model.Hand, "c1").
		Do(model.Action{Type: model.Cast, Object: "c1"}, model.Action{Type: model.Resolve}, model.Action{Type: model.Attack, Object: "c1@1"}).
		Expect(model.Expectation{Why: "CR 302.6, 508.1a: the declaration can't be made; nothing changes",
			NotAllowed: "302.6", Permanents: perms{"c1@1": {Status: &model.Status{}}}}))

	bd = build.New("302.6-mutated-creature-can-attack",
		"Gemrazer mutates onto Grizzly Bears, there since the turn began: the merged creature is the same object, so it can attack.", "302.6", "508.1a", "730.2c")
	bd.Card("c1", a, "Grizzly Bears")
	bd.Card("c2", a, "Gemrazer")
	add(bd.Perm("p1", a, up("c1")).Put(a, model.Hand, "c2").
		Do(model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"}, model.Action{Type: model.Resolve, Choices: model.Choices{Position: model.Top}},
			model.Action{Type: model.Attack, Object: "p1"}).
		Expect(model.Expectation{Why: "the mutate notes: a merged creature under its controller's control since the turn began can attack",
			Sequence: []model.EventClaim{{Kind: model.Attacks, Object: "p1"}}}))

	bd = build.New("508.1f-an-attacker-becomes-tapped",
		"Runeclaw Bear, under its controller's control since the turn began, is declared an attacker: attacking taps it.", "508.1f", "508.1a")
	bd.Card("c1", a, "Runeclaw Bear")
	add(bd.Perm("p1", a, up("c1")).
		Do(model.Action{Type: model.Attack, Object: "p1"}).
		Expect(model.Expectation{Why: "CR 508.1f: the active player taps the creatures declared as attackers",
			Sequence:   []model.EventClaim{{Kind: model.Attacks, Object: "p1"}, {Kind: model.StatusChange, Object: "p1"}},
			Permanents: perms{"p1": {Status: &model.Status{Tapped: true}}}}))

	bd = build.New("702.20b-a-mutated-attacker-with-vigilance-stays-untapped",
		"Majestic Auricorn mutated under Grizzly Bears gives the merged creature vigilance, so attacking does not tap it.", "702.20b", "702.140e", "508.1f")
	bd.Card("c1", a, "Grizzly Bears")
	bd.Card("c2", a, "Majestic Auricorn")
	add(bd.Perm("p1", a, up("c1"), up("c2")).
		Do(model.Action{Type: model.Attack, Object: "p1"}).
		Expect(model.Expectation{Why: "CR 702.140e: every component's abilities, vigilance among them; CR 702.20b: attacking does not tap a creature with vigilance",
			Sequence:   []model.EventClaim{{Kind: model.Attacks, Object: "p1"}},
			Permanents: perms{"p1": {Status: &model.Status{}, Abilities: []model.AbilityID{"vigilance"}}}}))

	bd = build.New("702.3b-wall-of-omens-cannot-attack",
		"Wall of Omens, untapped and its controller's since the turn began, is declared an attacker: it has defender, so the declaration is illegal.", "702.3b", "508.1c")
	bd.Card("c1", a, "Wall of Omens")
	add(bd.Perm("p1", a, up("c1")).
		Do(model.Action{Type: model.Attack, Object: "p1"}).
		Expect(model.Expectation{Why: "CR 702.3b: a creature with defender can't attack; CR 508.1c: the declaration is illegal and nothing changes",
			NotAllowed: "702.3b", Permanents: perms{"p1": {Status: &model.Status{}}}}))

	bd = build.New("702.3b-a-mutated-wall-cannot-attack",
		"Dreamtail Heron sits mutated on top of Wall of Omens: the merged creature has every component's abilities, defender among them, so it can't attack though its topmost card lacks defender.", "702.3b", "702.140e", "508.1c")
	bd.Card("c1", a, "Dreamtail Heron")
	bd.Card("c2", a, "Wall of Omens")
	add(bd.Perm("p1", a, up("c1"), up("c2")).
		Do(model.Action{Type: model.Attack, Object: "p1"}).
		Expect(model.Expectation{Why: "CR 702.140e: Wall of Omens' defender is the merged creature's; CR 702.3b: it can't attack",
			NotAllowed: "702.3b", Permanents: perms{"p1": {Status: &model.Status{}, Abilities: []model.AbilityID{"defender"}}}}))

	bd = build.New("601.3-brisela-forbids-her-opponents-cheap-spells",
		"B controls Brisela, Voice of Nightmares. A can't cast Sea-Dasher Octopus for mutate, though its mutate cost is 2: its mana value is 3, and Brisela forbids her controller's opponents spells of mana value 3 or less. Nor can A cast Grinning Demon face down, a spell without a mana cost, of mana value 0. Gemrazer, mana value 4, is cast and mutates onto Grizzly Bears.", "601.3", "702.37c", "702.140c")
	bd.Card("c1", b, "Bruna, the Fading Light")
	bd.Card("c2", b, "Gisela, the Broken Blade")
	bd.Card("c3", a, "Grizzly Bears")
	bd.Card("c4", a, "Sea-Dasher Octopus")
	bd.Card("c5", a, "Grinning Demon")
	bd.Card("c6", a, "Gemrazer")
	bd.Perm("p1", b, back("c1"), back("c2")).Perm("p2", a, up("c3")).Put(a, model.Hand, "c4", "c5", "c6")
	bd.Do(model.Action{Type: model.CastMutate, Object: "c4", Target: "p2"}).
		Expect(model.Expectation{Why: "CR 601.3: an effect forbids the cast, judged on the spell's mana value, 3, not its mutate cost",
			NotAllowed: "601.3", Zones: map[model.PlayerID]map[model.Zone][]model.ObjectID{a: {model.Hand: {"c4", "c5", "c6"}}}})
	bd.Do(model.Action{Type: model.Cast, Object: "c5", Method: model.ByMorph}).
		Expect(model.Expectation{Why: "CR 702.37c: cast face down it has no mana cost, so mana value 0; CR 601.3: forbidden",
			NotAllowed: "601.3", Zones: map[model.PlayerID]map[model.Zone][]model.ObjectID{a: {model.Hand: {"c4", "c5", "c6"}}}})
	add(bd.Do(model.Action{Type: model.CastMutate, Object: "c6", Target: "p2"}, model.Action{Type: model.Resolve, Choices: model.Choices{Position: model.Top}}).
		Expect(model.Expectation{Why: "CR 601.3: mana value 4 is not forbidden; CR 702.140c: Gemrazer merges on top",
			Zones:      map[model.PlayerID]map[model.Zone][]model.ObjectID{a: {model.Hand: {"c4", "c5"}}},
			Permanents: perms{"p2": {Components: []model.ObjectID{"c6", "c3"}, Name: ptr("Gemrazer")}}}))

	bd = build.New("508.1c-pacifism-on-a-mutated-creature",
		"Pacifism enchants Grizzly Bears; Dreamtail Heron mutates onto it. The merged creature is the object Pacifism enchants, so it can't attack.", "508.1c", "730.2c", "702.140c")
	bd.Card("c1", a, "Grizzly Bears")
	bd.Card("c2", a, "Dreamtail Heron")
	bd.Card("f1", b, "Pacifism")
	add(bd.Perm("p1", a, up("c1")).Perm("p2", b, up("f1")).Mod("p2", func(p *model.Permanent) { p.AttachedTo = "p1" }).Put(a, model.Hand, "c2").
		Do(model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"}, model.Action{Type: model.Resolve, Choices: model.Choices{Position: model.Top}},
			model.Action{Type: model.Attack, Object: "p1"}).
		Expect(model.Expectation{Why: "CR 730.2c: Pacifism stays attached to the merged creature; CR 508.1c: its restriction makes the declaration illegal",
			NotAllowed: "508.1c", Permanents: perms{"p1": {Status: &model.Status{}}, "p2": {AttachedTo: ptr(model.ObjectID("p1"))}}}))

	bd = build.New("702.140a-mutate-cannot-target-a-human",
		"Gemrazer is cast for its mutate cost targeting Elite Vanguard, a Human: that is no legal target, so the spell can't be cast and stays in hand.", "702.140a")
	bd.Card("c1", a, "Elite Vanguard")
	bd.Card("c2", a, "Gemrazer")
	add(bd.Perm("p1", a, up("c1")).Put(a, model.Hand, "c2").
		Do(model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"}).
		Expect(model.Expectation{Why: "CR 702.140a: a mutating creature spell targets a non-Human creature",
			NotAllowed: "702.140a", Zones: zones{a: {model.Hand: {"c2"}}}}))

	bd = build.New("702.16b-illuna-cannot-target-soltari-priest",
		"Illuna, Apex of Wishes, red among its colours, is cast for its mutate cost targeting Soltari Priest, which has protection from red: that is no legal target, so the spell can't be cast; Gemrazer, green, then can be.", "702.16b", "601.2c")
	bd.Card("c1", a, "Soltari Priest")
	bd.Card("c2", a, "Illuna, Apex of Wishes")
	bd.Card("c3", a, "Gemrazer")
	add(bd.Perm("p1", a, up("c1")).Put(a, model.Hand, "c2", "c3").
		Do(model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"}).
		Expect(model.Expectation{Why: "CR 702.16b, 601.2c: a permanent with protection from red can't be the target of a red spell, and a spell with no legal target can't be cast",
			NotAllowed: "702.16b", Zones: zones{a: {model.Hand: {"c2", "c3"}}}}).
		Do(model.Action{Type: model.CastMutate, Object: "c3", Target: "p1"}).
		Expect(model.Expectation{Why: "CR 702.16b: protection from red does not stop a green spell",
			Zones: zones{a: {model.Hand: {"c2"}}}}))

	bd = build.New("702.21a-a-paid-ward-leaves-the-spell-on-the-stack",
		"A's cloaked Grizzly Bears, which B controls, has ward {2}. A casts Gemrazer mutating onto it: ward triggers, A pays {2}, and the spell stays on the stack and then merges.", "702.21a", "701.58a", "702.140c")
	bd.Card("c1", a, "Grizzly Bears")
	bd.Card("c2", a, "Gemrazer")
	paid := model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"}
	paid.Choices.May = model.Bool(true)
	add(bd.Perm("p1", a, down("c1", model.ByCloak)).Mod("p1", func(p *model.Permanent) { p.Controller = b }).Put(a, model.Hand, "c2").
		Do(paid).
		Expect(model.Expectation{Why: "CR 702.21a: ward counters the spell only if its caster does not pay",
			Zones: zones{a: {model.Hand: {}}}, Battlefield: ptr(1)}).
		Do(model.Action{Type: model.Resolve, Choices: model.Choices{Position: model.Top}}).
		Expect(model.Expectation{Why: "CR 702.140c: the spell resolves and merges with its target",
			Permanents: map[model.ObjectID]model.PermanentClaim{"p1": {Components: []model.ObjectID{"c2", "c1"}}}}))

	bd = build.New("701.6a-an-unpaid-ward-counters-the-spell",
		"A's cloaked Grizzly Bears, which B controls, has ward {2}. A casts Gemrazer mutating onto it and does not pay: ward counters the spell, which goes to A's graveyard, and the Bears stay alone.", "701.6a", "702.21a", "701.58a")
	bd.Card("c1", a, "Grizzly Bears")
	bd.Card("c2", a, "Gemrazer")
	unpaid := model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"}
	unpaid.Choices.May = model.Bool(false)
	add(bd.Perm("p1", a, down("c1", model.ByCloak)).Mod("p1", func(p *model.Permanent) { p.Controller = b }).Put(a, model.Hand, "c2").
		Do(unpaid).
		Expect(model.Expectation{Why: "CR 702.21a: ward counters the spell, its caster not paying; CR 701.6a: a countered spell goes to its owner's graveyard, a card put there from anywhere",
			Zones:       zones{a: {model.Hand: {}, model.Graveyard: {"c2"}}},
			Triggers:    triggers{model.CardToGraveyard: 1},
			Battlefield: ptr(1),
			Permanents:  perms{"p1": {Components: []model.ObjectID{"c1"}}}}))

	// A countered spell meets the replacement effects of cards going to a
	// graveyard from anywhere (CR 614.1a, 616.1).
	for _, r := range []struct {
		name, card, desc, why string
		enchanted             bool
		where                 zones
	}{
		{"rest-in-peace-exiles-the-countered-spell", "Rest in Peace",
			"B's Rest in Peace is on the battlefield: ward counters A's Gemrazer, which is exiled instead of going to A's graveyard.",
			"CR 701.6a: the countered spell would go to its owner's graveyard; CR 614.1a, 616.1: Rest in Peace exiles it instead, and no card went to a graveyard",
			false, zones{a: {model.Hand: {}, model.Graveyard: {}, model.Exile: {"c2"}}}},
		{"wheel-of-sun-and-moon-puts-the-countered-spell-under-the-library", "Wheel of Sun and Moon",
			"B's Wheel of Sun and Moon enchants A: ward counters A's Gemrazer, which is revealed and put on the bottom of A's library instead.",
			"CR 701.6a, 614.1a: Wheel of Sun and Moon puts the card that would go to the enchanted player's graveyard on the bottom of that player's library",
			true, zones{a: {model.Hand: {}, model.Graveyard: {}, model.Library: {"l1", "c2"}}}},
	} {
		bd = build.New("701.6a-"+r.name, r.desc, "701.6a", "614.1a", "616.1", "702.21a")
		bd.Card("c1", a, "Grizzly Bears")
		bd.Card("c2", a, "Gemrazer")
		bd.Card("l1", a, "Runeclaw Bear")
		bd.Card("r1", b, r.card)
		add(bd.Perm("p1", a, down("c1", model.ByCloak)).Mod("p1", func(p *model.Permanent) { p.Controller = b }).
			Perm("p2", b, up("r1")).Mod("p2", func(p *model.Permanent) {
			if r.enchanted {
				p.EnchantedPlayer = a
			}
		}).Put(a, model.Hand, "c2").Put(a, model.Library, "l1").
			Do(unpaid).
			Expect(model.Expectation{Why: r.why, Zones: r.where, Triggers: triggers{model.CardToGraveyard: 0}, Battlefield: ptr(2)}))
	}

	bd = build.New("702.26b-destroy-all-spares-a-phased-out-creature",
		"Every creature is destroyed while B's Grizzly Bears is phased out: it is treated as though it does not exist, so it stays.", "702.26b", "701.8a")
	bd.Card("c1", b, "Grizzly Bears")
	bd.Card("c2", a, "Runeclaw Bear")
	add(bd.Perm("p1", b, up("c1")).Mod("p1", func(p *model.Permanent) { p.Status.PhasedOut = true }).Perm("p2", a, up("c2")).
		Do(model.Action{Type: model.DestroyAll}).
		Expect(model.Expectation{Why: "CR 702.26b: a phased-out permanent can't be affected; CR 701.8a: the others go to their owners' graveyards",
			Triggers:   triggers{model.CreatureDies: 1, model.NontokenCreatureDies: 1},
			Permanents: perms{"p1": {Status: &model.Status{PhasedOut: true}}, "p2": {Absent: true}},
			Zones:      zones{a: {model.Graveyard: {"c2"}}, b: {model.Graveyard: {}}}}))

	bd = build.New("701.42c-meld-after-its-pair-died",
		"Graf Rats dies before its meld ability resolves: the pair is no longer there, so nothing is exiled or melded and Midnight Scavengers stays.", "701.42c")
	bd.Card("c1", a, "Midnight Scavengers")
	bd.Card("c2", a, "Graf Rats")
	add(bd.Perm("p1", a, up("c1")).Perm("p2", a, up("c2")).
		Do(model.Action{Type: model.Move, Object: "p2", To: model.Graveyard}, model.Action{Type: model.Meld, Object: "p2", With: "p1"}).
		Expect(model.Expectation{Why: "CR 701.42c: objects that can't be melded stay where they are",
			NothingHappens: "701.42c", Battlefield: ptr(1),
			Permanents: perms{"p1": {Name: ptr("Midnight Scavengers")}},
			Zones:      zones{a: {model.Graveyard: {"c2"}, model.Exile: {}}}}))

	bd = build.New("702.37e-morph-turns-a-merged-permanent-face-up",
		"A face-down Exalted Angel with Gemrazer mutated under it is turned face up for its morph cost: face up, the merged permanent is Exalted Angel, which has morph.", "702.37e", "730.2a", "730.2f")
	bd.Card("c1", a, "Exalted Angel")
	bd.Card("c2", a, "Gemrazer")
	add(bd.Perm("p1", a, down("c1", model.ByMorph), up("c2")).
		Do(model.Action{Type: model.TurnFaceUp, Object: "p1", Method: model.ByMorph}).
		Expect(model.Expectation{Why: "CR 702.37e: the morph cost is the one it would have face up; CR 730.2a, 702.140e give it the topmost card's, and every component's abilities",
			Triggers: triggers{model.TurnedFaceUp: 1},
			Permanents: perms{"p1": {Faces: []model.FaceClaim{{Object: "c1"}, {Object: "c2"}}, Name: ptr("Exalted Angel"), Power: ptr(4), Toughness: ptr(5),
				AbilitiesExactly: &[]model.AbilityID{"flying", "lifelink", "morph", "mutate", "on_mutate", "reach", "trample"}}}}))

	bd = build.New("702.37e-no-morph-cost-face-up",
		"A manifested Grizzly Bears with Gemrazer mutated under it can't be turned face up for a morph cost: face up, neither card gives it morph.", "702.37e", "702.140e")
	bd.Card("c1", a, "Grizzly Bears")
	bd.Card("c2", a, "Gemrazer")
	add(bd.Perm("p1", a, down("c1", model.ByManifest), up("c2")).
		Do(model.Action{Type: model.TurnFaceUp, Object: "p1", Method: model.ByMorph}).
		Expect(model.Expectation{Why: "CR 702.37e: a permanent that would have no morph cost face up can't be turned face up this way",
			NotAllowed: "702.37e", Permanents: perms{"p1": {Status: &model.Status{FaceDown: true}}}}))

	attach := func(to model.ObjectID) func(p *model.Permanent) {
		return func(p *model.Permanent) { p.AttachedTo = to }
	}
	bd = build.New("613.4c-short-sword-on-a-mutated-creature",
		"Short Sword equips Grizzly Bears; Gemrazer mutates onto it. The merged creature is one object, the equipped creature, and gets +1/+1 once: 5/5.", "613.4c", "301.5a", "730.2")
	bd.Card("c1", a, "Grizzly Bears")
	bd.Card("c2", a, "Gemrazer")
	bd.Card("e1", a, "Short Sword")
	add(bd.Perm("p1", a, up("c1")).Perm("p2", a, up("e1")).Mod("p2", attach("p1")).Put(a, model.Hand, "c2").
		Do(model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"}).
		Expect(model.Expectation{Why: "CR 613.4c: the Bears, 2/2, get +1/+1 from the Sword", Permanents: perms{"p1": {Power: ptr(3), Toughness: ptr(3)}}}).
		Do(model.Action{Type: model.Resolve, Choices: model.Choices{Position: model.Top}}).
		Expect(model.Expectation{Why: "CR 730.2: Gemrazer on top of the same object, 4/4, still equipped (730.2c), gets +1/+1 once (613.4c)",
			Permanents: perms{"p1": {Components: []model.ObjectID{"c2", "c1"}, Name: ptr("Gemrazer"), Power: ptr(5), Toughness: ptr(5)}, "p2": {AttachedTo: ptr(model.ObjectID("p1"))}}}))

	bd = build.New("613.1f-mystic-subdual-on-a-mutated-creature",
		"Mystic Subdual enchants Grizzly Bears; Dreamtail Heron mutates onto it. The merged creature is the enchanted creature: it gets -2/-0 and loses all abilities, the Heron's flying and its mutate triggers among them.", "613.1f", "613.4c", "702.140e")
	bd.Card("c1", a, "Grizzly Bears")
	bd.Card("c2", a, "Dreamtail Heron")
	bd.Card("s1", b, "Mystic Subdual")
	add(bd.Perm("p1", a, up("c1")).Perm("p2", b, up("s1")).Mod("p2", attach("p1")).Put(a, model.Hand, "c2").
		Do(model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"}, model.Action{Type: model.Resolve, Choices: model.Choices{Position: model.Top}}).
		Expect(model.Expectation{Why: "CR 702.140e gives the merged creature every component's abilities in layer 1; the Aura removes them all in layer 6 (613.1f) and gives -2/-0 in layer 7c (613.4c): Dreamtail Heron, 1/4",
			Permanents: perms{"p1": {Components: []model.ObjectID{"c2", "c1"}, Name: ptr("Dreamtail Heron"), Power: ptr(1), Toughness: ptr(4), AbilitiesExactly: &[]model.AbilityID{}}}}))

	bd = build.New("613.7e-mystic-subdual-and-lightning-greaves-in-timestamp-order",
		"Two Grizzly Bears each wear Lightning Greaves and Mystic Subdual. On the first the Greaves were attached last, so it has haste and shroud and A's Gemrazer can't mutate onto it; on the second the Subdual was, so it has no ability and Gemrazer mutates onto it.", "613.1f", "613.7e", "702.18a")
	bd.Card("c1", a, "Grizzly Bears")
	bd.Card("c4", a, "Grizzly Bears")
	bd.Card("c6", a, "Gemrazer")
	bd.Card("s1", b, "Mystic Subdual")
	bd.Card("s2", b, "Mystic Subdual")
	bd.Card("g1", a, "Lightning Greaves")
	bd.Card("g2", a, "Lightning Greaves")
	bd.Perm("p1", a, up("c1")).Perm("p2", b, up("s1")).Mod("p2", attach("p1")).Perm("p3", a, up("g1")).Mod("p3", attach("p1"))
	bd.Perm("p4", a, up("c4")).Perm("p5", a, up("g2")).Mod("p5", attach("p4")).Perm("p6", b, up("s2")).Mod("p6", attach("p4")).Put(a, model.Hand, "c6")
	add(bd.Do(model.Action{Type: model.CastMutate, Object: "c6", Target: "p1"}).
		Expect(model.Expectation{Why: "CR 613.7e, 613.1f: the Greaves' grant is later than the Subdual's loss, so p1 has haste and shroud; CR 702.18a: no spell can target it",
			NotAllowed: "702.18a", Permanents: perms{"p1": {AbilitiesExactly: &[]model.AbilityID{"haste", "shroud"}, Power: ptr(0)}, "p4": {AbilitiesExactly: &[]model.AbilityID{}}}}).
		Do(model.Action{Type: model.CastMutate, Object: "c6", Target: "p4"}, model.Action{Type: model.Resolve, Choices: model.Choices{Position: model.Top}}).
		Expect(model.Expectation{Why: "CR 613.1f: the loss is the later, so Gemrazer's reach and trample are lost too; 4/4 gets -2/-0",
			Permanents: perms{"p4": {Components: []model.ObjectID{"c6", "c4"}, Power: ptr(2), Toughness: ptr(4), AbilitiesExactly: &[]model.AbilityID{}}}}))

	bd = build.New("613.4c-glorious-anthem-and-a-merged-creature",
		"A controls Glorious Anthem and a Gemrazer mutated onto a Grizzly Bears token; B controls Grizzly Bears. The merged creature gets +1/+1 once; B's creature gets nothing.", "613.4c", "730.2")
	bd.Card("c1", a, "Gemrazer")
	bd.Token("t1", a, "Grizzly Bears")
	bd.Card("c3", b, "Grizzly Bears")
	bd.Card("n1", a, "Glorious Anthem")
	add(bd.Perm("p1", a, up("c1"), up("t1")).Mod("p1", func(p *model.Permanent) { p.Mutated = true }).Perm("p2", b, up("c3")).Perm("p3", a, up("n1")).
		Do(model.Action{Type: model.AddCounters, Object: "p1", Counter: "+1/+1", N: 1}).
		Expect(model.Expectation{Why: "CR 613.4c: in layer 7c, Gemrazer's 4/4 gets +1/+1 from the Anthem and +1/+1 from the counter, each once",
			Permanents: perms{"p1": {Power: ptr(6), Toughness: ptr(6)}, "p2": {Power: ptr(2), Toughness: ptr(2)}}}))

	return out
}
