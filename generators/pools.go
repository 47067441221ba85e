package generators

// Pools of catalogue cards by the role they play in a merged stack. Every
// name is in package catalogue; a test checks it.
var (
	// vanilla creatures have no abilities, so they may sit face down under
	// a face-up mutated top without leaving the rules' silence.
	vanilla = []string{"Grizzly Bears", "Runeclaw Bear", "Wandering Ones"}
	// mutators are non-Human creatures with mutate.
	mutators = []string{"Gemrazer", "Vulpikeet", "Dreamtail Heron", "Pouncing Shoreshark", "Majestic Auricorn", "Sea-Dasher Octopus", "Dirge Bat"}
	// defenders are non-Human creatures with defender (CR 702.3b), a
	// legal target for a mutating spell.
	defenders = []string{"Wall of Omens"}
	flips     = []string{"Nezumi Shortfang", "Akki Lavarunner", "Jushi Apprentice"}
	// transforms are nonmodal double-faced creatures; modals have a
	// creature front face.
	transforms = []string{"Delver of Secrets", "Huntmaster of the Fells", "Village Ironsmith", "Afflicted Deserter", "Ludevic's Test Subject"}
	// nonHumanTransforms are the transforms a mutating spell can target.
	nonHumanTransforms = []string{"Ludevic's Test Subject"}
	modals             = []string{"Kazandu Mammoth"}
	meldHalves         = []string{"Graf Rats", "Midnight Scavengers"}
	morphs             = []string{"Grinning Demon", "Branchsnap Lorian", "Hystrodon"}
	spells             = []string{"Lightning Bolt", "Divination", "Giant Growth", "Valakut Awakening"}
	tokens             = []string{"Beast Token", "Saproling Token"}
	// briselaSpells are spells around the mana value Brisela's restriction
	// reads (CR 601.3): 2, 3, 4, and a morph card of 4 that is 0 cast
	// face down.
	briselaSpells = []string{"Grizzly Bears", "Sea-Dasher Octopus", "Gemrazer", "Grinning Demon"}
	// statics are the permanents with static abilities whose effects
	// the reference applies by layers (CR 613): Glorious Anthem alone is
	// not attached.
	statics = []string{"Short Sword", "Lightning Greaves", "Mystic Subdual", "Glorious Anthem"}
	// plainest gives, for each layout, the card a canonical counterexample
	// uses in place of any other of that layout.
	plainest = map[string]string{
		"normal": "Grizzly Bears", "flip": "Nezumi Shortfang", "transform": "Delver of Secrets",
		"modal_dfc": "Kazandu Mammoth",
	}
)

// Pools lists every pool by name, for the catalogue test.
func Pools() map[string][]string {
	return map[string][]string{
		"vanilla": vanilla, "mutators": mutators, "flips": flips, "transforms": transforms,
		"modals": modals, "meld": meldHalves, "morphs": morphs, "spells": spells, "tokens": tokens,
		"defenders": defenders, "brisela spells": briselaSpells, "statics": statics,
	}
}

// Plainest returns the plainest card of a layout, and whether there is one.
func Plainest(layout string) (string, bool) {
	n, ok := plainest[layout]
	return n, ok
}
