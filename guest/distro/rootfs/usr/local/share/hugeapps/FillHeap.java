/*
 * FillHeap MIB: fill MIB MiB of the Java heap with a pattern that depends
 * on each word's position, print "filled", wait for a line on standard
 * input (hugeapps moves the process between NUMA nodes meanwhile), then
 * check every word and print "pattern ok" (exit 0) or the first wrong
 * word (exit 1). The heap's pages are the huge folios that migration
 * copies; a wrong byte in a copy shows up here.
 */
import java.io.BufferedReader;
import java.io.InputStreamReader;

public final class FillHeap {
	private static final int WORDS = 32 * 1024;	/* 256 KiB per array */
	private static final long MIX = 0x9e3779b97f4a7c15L;

	private static long word(int a, int i) {
		return ((long)a << 32 | i) * MIX;
	}

	public static void main(String[] args) throws Exception {
		int mib = Integer.parseInt(args[0]);
		long[][] heap = new long[mib * 4][];

		for (int a = 0; a < heap.length; a++) {
			heap[a] = new long[WORDS];
			for (int i = 0; i < WORDS; i++)
				heap[a][i] = word(a, i);
		}
		System.out.println("filled " + mib + " MiB");
		System.out.flush();

		new BufferedReader(new InputStreamReader(System.in)).readLine();

		for (int a = 0; a < heap.length; a++) {
			for (int i = 0; i < WORDS; i++) {
				if (heap[a][i] != word(a, i)) {
					System.out.printf("pattern BAD: array %d word %d: %x, want %x%n",
							  a, i, heap[a][i], word(a, i));
					System.exit(1);
				}
			}
		}
		System.out.println("pattern ok: " + mib + " MiB");
	}
}
