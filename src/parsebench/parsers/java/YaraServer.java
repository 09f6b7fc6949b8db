// parsebench's bridge to Yara: one JVM parses many sentences.
//
// Run by parsebench.parsers.yara as
//   java -cp YaraParser.jar YaraServer.java MODEL
// Protocol on standard input and output (UTF-8): a sentence is one line a word,
// "FORM<TAB>TAG" (the tag Yara reads from the fourth CoNLL column), followed by
// an empty line; the answer is one "HEAD<TAB>DEPREL" line a word followed by an
// empty line, or the one line "error<TAB>MESSAGE" then an empty line. The first
// line written is "ready" (or "fatal<TAB>MESSAGE" before exiting). The parse is
// what Yara's own parse_conll gives with one thread: the model's beam, root
// position and lower-casing, the root relation named as in training, heads of
// the artificial root written as 0. Anything Yara prints goes to standard error.
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import YaraParser.Accessories.Options;
import YaraParser.Learning.AveragedPerceptron;
import YaraParser.Structures.IndexMaps;
import YaraParser.Structures.InfStruct;
import YaraParser.Structures.Sentence;
import YaraParser.TransitionBasedSystem.Configuration.Configuration;
import YaraParser.TransitionBasedSystem.Parser.KBeamArcEagerParser;

public class YaraServer {
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
        KBeamArcEagerParser parser;
        IndexMaps maps;
        Options options;
        try {
            InfStruct inf = new InfStruct(args[0]);
            maps = inf.maps;
            options = inf.options;
            AveragedPerceptron perceptron = new AveragedPerceptron(inf);
            parser = new KBeamArcEagerParser(perceptron, inf.dependencyLabels,
                                             perceptron.featureSize(), maps, 1);
        } catch (Throwable e) {
            out.print("fatal\t" + oneLine(e) + "\n");
            out.flush();
            System.exit(1);
            return;
        }
        out.print("ready\n");
        out.flush();
        List<String> words = new ArrayList<>();
        List<String> tags = new ArrayList<>();
        String line;
        while ((line = in.readLine()) != null) {
            if (!line.isEmpty()) {
                String[] cols = line.split("\t", -1);
                words.add(cols[0].trim());
                tags.add(cols.length > 1 ? cols[1].trim() : "_");
                continue;
            }
            StringBuilder answer = new StringBuilder();
            try {
                String[] w = words.toArray(new String[0]);
                Sentence sentence = maps.makeSentence(w, tags.toArray(new String[0]),
                                                      options.rootFirst, options.lowercase);
                Configuration best = parser.parse(sentence, options.rootFirst,
                                                  options.beamWidth, 1);
                for (int i = 0; i < w.length; i++) {
                    int word = i + 1;
                    int head = best.state.getHead(word);
                    int dep = best.state.getDependency(word);
                    if (head == best.state.rootIndex) {
                        head = 0;
                    }
                    String label = head == 0 ? maps.rootString : maps.revWords[dep];
                    answer.append(head).append('\t').append(label).append('\n');
                }
            } catch (Throwable e) {
                answer = new StringBuilder("error\t" + oneLine(e) + "\n");
            }
            words.clear();
            tags.clear();
            out.print(answer);
            out.print("\n");
            out.flush();
        }
        parser.shutDownLiveThreads();
    }
}
