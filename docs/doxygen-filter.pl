#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# The input filter of docs/Doxyfile for docs/*.md (FILTER_PATTERNS: doxygen
# runs it with the file's path), so that the HTML pages keep the links
# that work on GitHub:
# - a heading outside code blocks gets the anchor GitHub gives it ({#slug}:
#   lower case, punctuation dropped, spaces to dashes), unless it names
#   one: every heading of spec.md (the reference cites its sections), and
#   in the other guides the headings another guide links to (an anchor on
#   every heading would repeat labels across pages, which doxygen refuses);
# - a link to a heading of another guide, [text](name.md#slug), points at
#   that guide's page (md_docs_name.html#slug): doxygen rewrites a link to
#   name.md, but not one with an anchor.
use strict;
use warnings;
use File::Basename qw(basename dirname);
my $file = $ARGV[0];
my $base = basename($file);
my $all = $base eq 'spec.md';
my %wanted;
for my $other (glob(dirname($file) . '/*.md')) {
    open(my $fh, '<', $other) or next;
    while (<$fh>) { $wanted{$1} = 1 while /\]\(\Q$base\E#([^)\s]+)\)/g }
    close($fh);
}
# A doxygen label cannot start with a digit (GitHub's "8-analysis" of a
# heading "8. Analysis"): such a one gets an "s" in front, on both sides.
sub label { my ($s) = @_; return $s =~ /^[0-9]/ ? "s$s" : $s }
my $fence = 0;
while (my $line = <>) {
    if ($line =~ /^(```|~~~)/) { $fence = !$fence }
    if (!$fence && $line =~ /^(##+) +(.*?) *$/ && index($2, '{#') < 0) {
        my ($h, $t) = ($1, $2);
        (my $s = lc $t) =~ s/[^a-z0-9_ -]//g;
        $s =~ tr/ /-/;
        $line = "$h $t {#" . label($s) . "}\n" if $all || $wanted{$s};
    }
    if (!$fence) {
        $line =~ s{\]\(([A-Za-z0-9_-]+)\.md#([^)\s]+)\)}{
            my ($n, $a) = ($1, $2); $n =~ tr/-/_/; "](md_docs_$n.html#" . label($a) . ")"
        }ge;
    }
    print $line;
}
