# Game, Seat and Move models come with the rules engine (later issues).
