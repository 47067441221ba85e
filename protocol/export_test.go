package protocol

// DecodeEnvelope is DecodeReply's second pass, for the tests that hold the
// two passes to the same answers.
var DecodeEnvelope = decodeEnvelope
