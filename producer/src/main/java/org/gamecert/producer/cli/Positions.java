package org.gamecert.producer.cli;

import org.gamecert.producer.command.CommandSupport;

import org.gamecert.producer.game.Game;

/** Turns --moves / --board into a position, with one-line errors. */
final class Positions {
    private Positions() {}

    static long[] parse(Game game, String moves, String board) {
        if (moves != null && board != null) throw new CommandSupport.UserError("give either --moves or --board, not both");
        try {
            if (board != null) return game.parseBoard(board);
            return game.parseMoves(moves == null ? "" : moves);
        } catch (IllegalArgumentException e) {
            throw new CommandSupport.UserError((board != null ? "bad --board: " : "bad --moves: ") + e.getMessage());
        }
    }
}
