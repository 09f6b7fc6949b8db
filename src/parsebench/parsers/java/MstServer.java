// parsebench's bridge to MSTParser 0.4.3b: one JVM parses many sentences.
//
// Run by parsebench.parsers.mst as
//   java -cp mstparser-0.4.3b.jar MstServer.java MODEL ORDER DECODE_TYPE SCRATCH_FOLDER
// Protocol on standard input and output (UTF-8): a sentence is its ten CoNLL-X
// columns a word, then an empty line; the answer is one "HEAD<TAB>DEPREL" line a
// word then an empty line, or the one line "error<TAB>MESSAGE" then an empty line.
// The first line written is "ready" (or "fatal<TAB>MESSAGE" before exiting).
// Each sentence goes through MSTParser's own DependencyParser.outputParses, the
// loop of its "test" command, on a one-sentence file in SCRATCH_FOLDER: the parse
// is what its command line gives for that sentence, with the same model, order
// and decoding. Anything MSTParser prints goes to standard error.
import java.io.BufferedReader;
import java.io.File;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;

import mstparser.DependencyParser;
import mstparser.DependencyPipe;
import mstparser.DependencyPipe2O;
import mstparser.ParserOptions;

public class MstServer {
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
        File input = new File(args[3], "in.conll");
        File output = new File(args[3], "out.conll");
        DependencyParser parser;
        try {
            ParserOptions options = new ParserOptions(new String[] {
                "test", "model-name:" + args[0], "order:" + args[1], "decode-type:" + args[2],
                "test-file:" + input.getPath(), "output-file:" + output.getPath()});
            DependencyPipe pipe = options.secondOrder ? new DependencyPipe2O(options)
                                                      : new DependencyPipe(options);
            parser = new DependencyParser(pipe, options);
            parser.loadModel(options.modelName);
            pipe.closeAlphabets();
        } catch (Throwable e) {
            out.print("fatal\t" + oneLine(e) + "\n");
            out.flush();
            System.exit(1);
            return;
        }
        out.print("ready\n");
        out.flush();
        StringBuilder sentence = new StringBuilder();
        int words = 0;
        String line;
        while ((line = in.readLine()) != null) {
            if (!line.isEmpty()) {
                sentence.append(line).append('\n');
                words++;
                continue;
            }
            StringBuilder answer = new StringBuilder();
            try {
                Files.write(input.toPath(), sentence.append('\n').toString()
                            .getBytes(StandardCharsets.UTF_8));
                parser.outputParses();
                List<String> rows = Files.readAllLines(output.toPath(), StandardCharsets.UTF_8);
                int got = 0;
                for (String row : rows) {
                    if (row.isEmpty()) {
                        continue;
                    }
                    String[] cols = row.split("\t", -1);
                    answer.append(cols[6]).append('\t').append(cols[7]).append('\n');
                    got++;
                }
                if (got != words) {
                    throw new IllegalStateException(got + " rows out for " + words);
                }
            } catch (Throwable e) {
                answer = new StringBuilder("error\t" + oneLine(e) + "\n");
            }
            sentence.setLength(0);
            words = 0;
            out.print(answer);
            out.print("\n");
            out.flush();
        }
    }
}
