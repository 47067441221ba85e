package properties

// All lists every property, in rule order.
var All = []*Property{
	P110_5, P110_5a, P110_5b, P110_5c, P110_5d,
	P701_42a, P701_42b, P701_42c,
	P702_26b, P702_26c, P702_26d,
	P702_140a, P702_140b, P702_140c, P702_140d, P702_140e, P702_140f,
	P704_5d,
	P708_2a, P708_2b, P708_8, P708_9,
	P710_1b, P710_2, P710_4,
	P712_4a, P712_4b, P712_4c, P712_8d, P712_8e, P712_8g, P712_15a, P712_16, P712_18,
	P712_21, P712_21a, P712_21b, P712_21c, P712_21d, P712_21e,
	P730_2, P730_2a, P730_2b, P730_2c, P730_2d, P730_2e, P730_2f, P730_2g, P730_2h, P730_2i, P730_2j,
	P730_3, P730_3a, P730_3b, P730_3c, P730_3d, P730_3e,
}
