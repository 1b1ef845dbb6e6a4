/*
 * Driver for the golden values in this folder: runs Weka's
 * weka.attributeSelection.ReliefFAttributeEval on one ARFF file (class = the
 * last attribute) and prints every attribute's merit exactly.
 *
 * Written for orange3-relief (GPL-3.0-or-later); it only calls Weka's public
 * API.  Compile and run against weka.jar (see make_golden.py):
 *
 *   javac -cp weka.jar -d build WekaReliefF.java
 *   java -cp weka.jar:build WekaReliefF data.arff "-K 10 -M -1" "-W -A 2" ...
 *   java -cp weka.jar:build WekaReliefF --dump data.arff
 *
 * Every argument after the file is one option set, given to a fresh evaluator
 * with setOptions.  "-S seed" is accepted as a synonym of Weka's own seed
 * option "-D seed".  For each option set the output is one line
 *
 *   #options<TAB><the option string as given>
 *
 * followed by one line per attribute other than the class:
 *
 *   <index><TAB><Double.toString(merit)><TAB><Double.toHexString(merit)>
 *
 * (the hexadecimal form is exact; make_golden.py reads it).
 *
 * --dump prints the data as Weka read it, so that another reader can be
 * compared with it: a header line per attribute ("#attr<TAB>index<TAB>
 * nominal|numeric|other<TAB>number of values<TAB>name"), then one line per
 * instance with each value as a hexadecimal double (numeric), the 0-based
 * index of the value (nominal), or "?" (missing).
 */

import java.io.BufferedReader;
import java.io.FileReader;
import java.util.ArrayList;
import java.util.List;

import weka.attributeSelection.ReliefFAttributeEval;
import weka.core.Attribute;
import weka.core.Instance;
import weka.core.Instances;
import weka.core.Utils;

public class WekaReliefF {

  private static Instances load(String path) throws Exception {
    Instances data;
    try (BufferedReader reader = new BufferedReader(new FileReader(path))) {
      data = new Instances(reader);
    }
    data.setClassIndex(data.numAttributes() - 1);
    return data;
  }

  /** Splits an option string on white space and maps -S to -D. */
  private static String[] wekaOptions(String optionString) {
    List<String> out = new ArrayList<String>();
    for (String token : optionString.trim().split("\\s+")) {
      if (token.isEmpty()) {
        continue;
      }
      out.add(token.equals("-S") ? "-D" : token);
    }
    return out.toArray(new String[0]);
  }

  private static void dump(Instances data) {
    StringBuilder text = new StringBuilder();
    for (int a = 0; a < data.numAttributes(); a++) {
      Attribute attribute = data.attribute(a);
      String kind = attribute.isNominal() ? "nominal"
        : (attribute.isNumeric() ? "numeric" : "other");
      text.append("#attr\t").append(a).append('\t').append(kind).append('\t')
        .append(attribute.numValues()).append('\t').append(attribute.name())
        .append('\n');
    }
    for (int i = 0; i < data.numInstances(); i++) {
      Instance instance = data.instance(i);
      for (int a = 0; a < data.numAttributes(); a++) {
        if (a > 0) {
          text.append('\t');
        }
        double value = instance.value(a);
        if (Utils.isMissingValue(value)) {
          text.append('?');
        } else if (data.attribute(a).isNominal()) {
          text.append((int) value);
        } else {
          text.append(Double.toHexString(value));
        }
      }
      text.append('\n');
    }
    System.out.print(text);
  }

  public static void main(String[] args) throws Exception {
    if (args.length >= 2 && args[0].equals("--dump")) {
      dump(load(args[1]));
      return;
    }
    if (args.length < 2) {
      System.err.println("usage: WekaReliefF FILE.arff OPTIONS [OPTIONS ...]"
        + "\n       WekaReliefF --dump FILE.arff");
      System.exit(2);
    }
    StringBuilder text = new StringBuilder();
    for (int s = 1; s < args.length; s++) {
      // a fresh copy of the data and a fresh evaluator for every option set
      Instances data = load(args[0]);
      ReliefFAttributeEval evaluator = new ReliefFAttributeEval();
      evaluator.setOptions(wekaOptions(args[s]));
      evaluator.buildEvaluator(data);
      text.append("#options\t").append(args[s]).append('\n');
      for (int a = 0; a < data.numAttributes(); a++) {
        if (a == data.classIndex()) {
          continue;
        }
        double merit = evaluator.evaluateAttribute(a);
        text.append(a).append('\t').append(Double.toString(merit)).append('\t')
          .append(Double.toHexString(merit)).append('\n');
      }
    }
    System.out.print(text);
  }
}
