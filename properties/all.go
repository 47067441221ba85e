package properties

// All lists every property, in rule order.
var All = []*Property{
	P110_5, P110_5a, P110_5b, P110_5c, P110_5d,
	P701_42a,
	P702_26d,
	P702_140a, P702_140b, P702_140c, P702_140d, P702_140e, P702_140f,
	P704_5d,
	P710_4,
	P712_16, P712_21, P712_21e,
	P730_2, P730_2a, P730_2b, P730_2c, P730_2d, P730_2e, P730_2f, P730_2g, P730_2h, P730_2i, P730_2j,
	P730_3, P730_3a, P730_3b, P730_3c, P730_3d, P730_3e,
}
