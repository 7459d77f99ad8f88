"""Socket delivery: consumers, the broadcast of each move, the publisher, socket auth,
presence and the messages both ways."""
