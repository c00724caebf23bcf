"""The SDK host: cc driven by a program over stdin/stdout in stream-json, with the
control protocol (wire, host, control, turns)."""
