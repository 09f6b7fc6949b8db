// parsebench's bridge to MaltParser: one JVM parses many sentences.
//
// Run by parsebench.parsers.malt as
//   java -cp maltparser-1.9.2.jar MaltServer.java MODEL_NAME [MALT OPTIONS...]
// in the model's folder. Protocol on standard input and output (UTF-8): a
// sentence is its CoNLL-U word lines followed by an empty line; the answer is
// one "HEAD<TAB>DEPREL" line a word followed by an empty line, or the one line
// "error<TAB>MESSAGE" then an empty line. The first line written is "ready" (or
// "fatal<TAB>MESSAGE" before exiting). Anything MaltParser prints goes to
// standard error, so it cannot corrupt the answers.
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.maltparser.MaltParserService;

public class MaltServer {
    static String oneLine(Throwable e) {
        String m = e.getClass().getSimpleName() + ": " + e.getMessage();
        return m.replaceAll("\\s+", " ");
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false,
                                          "UTF-8");
        System.setOut(System.err);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in,
                                                                     StandardCharsets.UTF_8));
        MaltParserService service;
        try {
            service = new MaltParserService();
            service.initializeParserModel(String.join(" ", args));
        } catch (Throwable e) {
            out.print("fatal\t" + oneLine(e) + "\n");
            out.flush();
            System.exit(1);
            return;
        }
        out.print("ready\n");
        out.flush();
        List<String> rows = new ArrayList<>();
        String line;
        while ((line = in.readLine()) != null) {
            if (!line.isEmpty()) {
                rows.add(line);
                continue;
            }
            StringBuilder answer = new StringBuilder();
            try {
                String[] got = service.parseTokens(rows.toArray(new String[0]));
                if (got.length != rows.size()) {
                    throw new IllegalStateException(got.length + " rows out for " + rows.size());
                }
                for (String row : got) {
                    String[] cols = row.split("\t", -1);
                    answer.append(cols[6]).append('\t').append(cols[7]).append('\n');
                }
            } catch (Throwable e) {
                answer = new StringBuilder("error\t" + oneLine(e) + "\n");
            }
            rows.clear();
            out.print(answer);
            out.print("\n");
            out.flush();
        }
        service.terminateParserModel();
    }
}
