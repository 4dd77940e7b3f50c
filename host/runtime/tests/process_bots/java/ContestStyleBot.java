import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.Socket;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A Speed Clue entrant written the way the 2014 contest's Java base class
 * (core/code/com/sadakatsu/clue/ai/SpeedClueAI.java) talks: a raw socket,
 * `out.format(message)` on an auto-flushing PrintWriter (no line
 * terminator), and each message read with one `in.read(buffer)` into a
 * 512-char buffer, trailing NULs stripped, lower-cased. Our own code:
 * `java ContestStyleBot ID PORT`; `java ContestStyleBot ID PORT --no-flush`
 * makes a new author's mistake, a PrintWriter that does not flush.
 */
public class ContestStyleBot {
    static final String[][] CATEGORIES = {
        "gr mu pe pl sc wh".split(" "),
        "ca kn pi re ro wr".split(" "),
        "ba bi co di ha ki li lo st".split(" "),
    };

    public static void main(String[] args) throws IOException {
        String id = args[0];
        int port = Integer.parseInt(args[1]);
        try (Socket socket = new Socket("localhost", port)) {
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream()));
            boolean flush = !(args.length > 2 && args[2].equals("--no-flush"));
            PrintWriter out = new PrintWriter(socket.getOutputStream(), flush);
            char[] buffer = new char[512];
            out.format(String.format("%s alive", id));
            int me = -1;
            Set<String> hand = new HashSet<>();
            Set<String> seen = new HashSet<>();
            Set<String> made = new HashSet<>();
            String forced = null;
            while (true) {
                int read = in.read(buffer);
                if (read <= 0) {
                    return;
                }
                while (read > 0 && buffer[read - 1] == '\0') {
                    --read;
                }
                String message = String.copyValueOf(buffer, 0, read).toLowerCase();
                String[] w = message.split(" ");
                String answer;
                switch (w[0]) {
                    case "reset":
                        me = Integer.parseInt(w[2]);
                        hand.clear();
                        for (int i = 3; i < w.length; i++) {
                            hand.add(w[i]);
                        }
                        seen = new HashSet<>(hand);
                        made.clear();
                        forced = null;
                        answer = "ok";
                        break;
                    case "suggest":
                        answer = "suggest " + pick(seen, made);
                        break;
                    case "disprove": {
                        String show = null;
                        for (int i = 2; i < 5; i++) {
                            if (hand.contains(w[i])) {
                                show = w[i];
                                break;
                            }
                        }
                        answer = "show " + show;
                        break;
                    }
                    case "suggestion": {
                        int who = Integer.parseInt(w[1]);
                        if (w.length > 6) {
                            seen.add(w[6]);
                        }
                        boolean mine = false;
                        for (int i = 2; i < 5; i++) {
                            mine |= seen.contains(w[i]);
                        }
                        if (who == me && w[5].equals("-") && !mine) {
                            forced = w[2] + " " + w[3] + " " + w[4];
                        }
                        answer = "ok";
                        break;
                    }
                    case "accuse":
                        answer = forced == null ? "-" : "accuse " + forced;
                        break;
                    case "accusation":
                        answer = "ok";
                        break;
                    case "done":
                        out.format("dead");
                        return;
                    default:
                        System.err.println("unknown message: " + message);
                        continue;
                }
                out.format(answer);
            }
        }
    }

    /** The first suggestion not made yet, preferring cards not seen. */
    static String pick(Set<String> seen, Set<String> made) {
        List<String> all = new ArrayList<>();
        for (String s : CATEGORIES[0]) {
            for (String w : CATEGORIES[1]) {
                for (String r : CATEGORIES[2]) {
                    all.add(s + " " + w + " " + r);
                }
            }
        }
        for (boolean fresh : new boolean[] {true, false}) {
            for (String t : all) {
                boolean unseen = true;
                for (String c : t.split(" ")) {
                    unseen &= !seen.contains(c);
                }
                if (!made.contains(t) && (unseen || !fresh)) {
                    made.add(t);
                    return t;
                }
            }
        }
        return all.get(0);
    }
}
