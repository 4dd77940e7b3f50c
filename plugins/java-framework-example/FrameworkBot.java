import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An example bot for the Clue AI framework protocol (seeds/000,
 * docs/framework.md), standard library only.
 *
 * It walks towards the nearest room whose card is still unaccounted for,
 * guesses in every room it ends a move in (unknown person and weapon), notes
 * each card it is shown, and accuses once a single candidate is left in each
 * category, or when nobody could disprove a guess of cards it does not hold.
 *
 * Build and run: javac -d target/java plugins/java-framework-example/*.java
 *                java -cp target/java FrameworkBot
 */
public final class FrameworkBot {
    private static final int PERSON = 0, WEAPON = 1, ROOM = 2;

    private final BufferedReader in;
    private final PrintStream out;

    private int id;
    private int width;
    private int[][] board = new int[0][0];
    /** counts[type]: how many cards of each type. */
    private final int[] counts = new int[3];
    /** known[type][id]: held by this bot or shown to it (not in the envelope). */
    private boolean[][] known = new boolean[3][0];
    /** mine[type][id]: in this bot's hand. */
    private boolean[][] mine = new boolean[3][0];
    /** solved[type]: the envelope's card of a type, once deduced; -1 before. */
    private final int[] solved = {-1, -1, -1};
    private int y, x;
    private boolean placed;
    /** The guess made this turn, waiting to learn whether anyone disproved it. */
    private int[] pending;

    private FrameworkBot(BufferedReader in, PrintStream out) {
        this.in = in;
        this.out = out;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        new FrameworkBot(in, out).run();
    }

    private void say(String line) {
        out.println(line);
        out.flush();
    }

    private void run() throws IOException {
        String line;
        while ((line = in.readLine()) != null) {
            String[] w = line.trim().split("\\s+");
            if (w.length == 0 || w[0].isEmpty()) {
                continue;
            }
            if (pending != null && !(w[0].equals("Card") && w.length > 1 && w[1].equals("From"))) {
                // Nobody could disprove the last guess (no message was sent).
                noneDisproved(pending);
            }
            if (!(w[0].equals("Card") && w.length > 1 && w[1].equals("From"))) {
                pending = null;
            }
            switch (w[0]) {
                case "ID" -> id = Integer.parseInt(w[1]);
                case "Board" -> readBoard(Integer.parseInt(w[1]));
                case "Name" -> say("Java Example");
                case "Roomname" -> grow(ROOM, Integer.parseInt(w[1]) + 1);
                case "Weaponname" -> grow(WEAPON, Integer.parseInt(w[1]));
                case "Personname" -> grow(PERSON, Integer.parseInt(w[1]));
                case "Card" -> {
                    if (w[1].equals("From")) {
                        know(Integer.parseInt(w[3]), Integer.parseInt(w[4]));
                        pending = null;
                    } else {
                        int type = Integer.parseInt(w[1]), card = Integer.parseInt(w[2]);
                        know(type, card);
                        mine[type][card] = true;
                    }
                }
                case "Move" -> turn(Integer.parseInt(w[2]));
                case "Disprove" -> disprove(Integer.parseInt(w[2]), Integer.parseInt(w[3]), Integer.parseInt(w[4]));
                case "Win" -> {
                    return;
                }
                case "Accusation" -> {
                    if (Integer.parseInt(w[1]) == id) {
                        return;
                    }
                }
                default -> {
                    // Playercount, Opponent, Disproved: nothing to do.
                }
            }
        }
    }

    private void readBoard(int w) throws IOException {
        width = w;
        board = new int[w][w];
        for (int r = 0; r < w; r++) {
            String row = in.readLine();
            if (row == null) {
                throw new IOException("the board ended early");
            }
            String[] cells = row.trim().split("\\s+");
            for (int c = 0; c < w; c++) {
                board[r][c] = Integer.parseInt(cells[c]);
            }
        }
        // Everyone starts on the first cell of room 0, in row-major order.
        for (int r = 0; r < w && !placed; r++) {
            for (int c = 0; c < w && !placed; c++) {
                if (board[r][c] == 1) {
                    y = r;
                    x = c;
                    placed = true;
                }
            }
        }
    }

    private void grow(int type, int count) {
        if (count > counts[type]) {
            counts[type] = count;
            known[type] = Arrays.copyOf(known[type], count);
            mine[type] = Arrays.copyOf(mine[type], count);
        }
    }

    private void know(int type, int card) {
        grow(type, card + 1);
        known[type][card] = true;
    }

    private void noneDisproved(int[] guess) {
        for (int type = 0; type < 3; type++) {
            if (!mine[type][guess[type]]) {
                solved[type] = guess[type];
            }
        }
    }

    /** The envelope's card of a type if it is certain, else -1. */
    private int answer(int type) {
        if (solved[type] >= 0) {
            return solved[type];
        }
        int found = -1;
        for (int c = 0; c < counts[type]; c++) {
            if (!known[type][c]) {
                if (found >= 0) {
                    return -1;
                }
                found = c;
            }
        }
        return found;
    }

    /** A card of the type worth asking about: the answer if known, else the first unknown. */
    private int candidate(int type) {
        int a = answer(type);
        if (a >= 0) {
            return a;
        }
        for (int c = 0; c < counts[type]; c++) {
            if (!known[type][c]) {
                return c;
            }
        }
        return 0;
    }

    private void turn(int roll) {
        int p = answer(PERSON), w = answer(WEAPON), r = answer(ROOM);
        if (p >= 0 && w >= 0 && r >= 0) {
            say("Accusation " + p + " " + w + " " + r);
            return;
        }
        int goal = r >= 0 ? r : -1;
        int[] target = nearestRoomCell(goal);
        int ty = target[0], tx = target[1];
        // Walk towards the target: rows first, then columns, at most `roll` steps.
        int steps = roll;
        int dy = Math.min(steps, Math.abs(ty - y));
        y += Integer.signum(ty - y) * dy;
        steps -= dy;
        int dx = Math.min(steps, Math.abs(tx - x));
        x += Integer.signum(tx - x) * dx;
        int room = board[y][x] - 1;
        if (room < 0) {
            say("Move " + y + " " + x);
            return;
        }
        pending = new int[] {candidate(PERSON), candidate(WEAPON), room};
        if (dy == 0 && dx == 0) {
            say("Guess " + pending[0] + " " + pending[1] + " " + room);
        } else {
            say("Move " + y + " " + x + " " + pending[0] + " " + pending[1] + " " + room);
        }
    }

    /**
     * The nearest cell of room `goal`, or (goal -1) of the nearest room whose
     * card is unknown; staying counts when this bot stands in such a room.
     */
    private int[] nearestRoomCell(int goal) {
        int best = Integer.MAX_VALUE;
        int[] cell = {y, x};
        for (int r = 0; r < width; r++) {
            for (int c = 0; c < width; c++) {
                int room = board[r][c] - 1;
                if (room < 0) {
                    continue;
                }
                boolean wanted = goal >= 0 ? room == goal : room < counts[ROOM] && !known[ROOM][room];
                int d = Math.abs(r - y) + Math.abs(c - x);
                if (wanted && d < best) {
                    best = d;
                    cell = new int[] {r, c};
                }
            }
        }
        return cell;
    }

    private void disprove(int person, int weapon, int room) {
        int[] ids = {person, weapon, room};
        for (int type = 0; type < 3; type++) {
            if (ids[type] < mine[type].length && mine[type][ids[type]]) {
                say("Disprove " + type);
                return;
            }
        }
        say("Disprove -1");
    }
}
