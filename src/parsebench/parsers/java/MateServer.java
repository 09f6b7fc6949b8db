// parsebench's bridge to Mate's graph-based parser anna 3.61: one JVM parses many
// sentences.
//
// Run by parsebench.parsers.mate as
//   java -cp anna-3.61.jar MateServer.java SCRATCH_FOLDER -model MODEL -cores N
// Protocol on standard input and output (UTF-8): a sentence is its fourteen CoNLL
// 2009 columns a word, then an empty line; the answer is one "HEAD<TAB>DEPREL" line
// a word (the predicted PHEAD and PDEPREL) then an empty line, or the one line
// "error<TAB>MESSAGE" then an empty line. The first line written is "ready" (or
// "fatal<TAB>MESSAGE" before exiting). The model loads as is2.parser.Parser's main
// loads it for "-test", and each sentence goes through the loop of that command
// (CONLLReader09.getNext, then Parser.parse) on a one-sentence file in
// SCRATCH_FOLDER: the parse is what its command line gives. Anything Mate prints
// goes to standard error.
import java.io.BufferedReader;
import java.io.File;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;

import is2.data.SentenceData09;
import is2.io.CONLLReader09;
import is2.parser.Options;
import is2.parser.ParametersFloat;
import is2.parser.Parser;
import is2.parser.Pipe;
import is2.util.OptionsSuper;

public class MateServer {
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
        File input = new File(args[0], "in.conll09");
        Parser parser;
        OptionsSuper options;
        try {
            String[] rest = Arrays.copyOfRange(args, 1, args.length);
            String[] argv = new String[rest.length + 2];
            System.arraycopy(rest, 0, argv, 0, rest.length);
            argv[rest.length] = "-test";
            argv[rest.length + 1] = input.getPath();
            options = new Options(argv);
            int cores = Runtime.getRuntime().availableProcessors();
            Parser.THREADS = options.cores < cores && options.cores > 0 ? options.cores : cores;
            // as Parser(OptionsSuper) does, but a model that cannot be read stops here
            parser = new Parser();
            parser.options = options;
            parser.pipe = new Pipe(options);
            parser.params = new ParametersFloat(0);
            parser.readModel(options, parser.pipe, parser.params);
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
                CONLLReader09 reader = new CONLLReader09(options.testfile, options.formatTask);
                SentenceData09 instance = reader.getNext();
                reader.getNext();  // (reads past the end: closes the file)
                SentenceData09 got = parser.parse(instance, parser.params, options.label,
                                                  options);
                if (got.pheads.length != words) {
                    throw new IllegalStateException(got.pheads.length + " rows out for " + words);
                }
                for (int i = 0; i < words; i++) {
                    answer.append(got.pheads[i]).append('\t').append(got.plabels[i])
                          .append('\n');
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
        System.exit(0);  // (Mate's thread pools would keep the JVM alive)
    }
}
