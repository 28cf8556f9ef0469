package org.gamecert.producer.search;

/**
 * What a ranked certificate (SPEC §9.2) is read from: per position (mover, opponent), the rank of
 * a proven win of the side to move and its move, or the rank of a proven loss; 0 when none is
 * proven. Every proof edge must lower the rank: a win's move leads to a loss (or, after a pass, a
 * win) of lower rank or a terminal win; every move of a loss to a win (after a pass, a loss) of
 * lower rank or a terminal loss.
 */
public interface RankedProof {
    int winRank(long mover, long opponent);

    int winMove(long mover, long opponent);

    int lossRank(long mover, long opponent);
}
