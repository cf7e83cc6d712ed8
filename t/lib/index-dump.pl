#!/usr/bin/perl
# index-dump.pl FILE [--no-stat]: an index file as text, one line per
# entry and per extension, for test_cmp. With --no-stat the stat data
# that differs between two copies of a work tree (ctime, mtime, dev,
# ino) is left out; mode, uid, gid, size, id, flags, path stay. Each
# extension is printed whole, in hex (FSMN version 2: its token as text,
# then the rest in hex). (gitformat-index: v2/v3 names
# NUL-padded to 8 bytes, v4 names prefix-compressed.)
use strict;
use warnings;

my ($file, $opt) = @ARGV;
my $nostat = defined $opt && $opt eq '--no-stat';
open(my $fh, '<:raw', $file) or die "$file: $!";
local $/;
my $d = <$fh>;
close $fh;
my ($sig, $ver, $n) = unpack('a4 N N', $d);
die "$file: not an index\n" unless $sig eq 'DIRC';
print "version $ver entries $n\n";
my $off = 12;
my $prev = '';
for (1 .. $n) {
	my @f = unpack('N10', substr($d, $off, 40));
	my $id = unpack('H40', substr($d, $off + 40, 20));
	my $flags = unpack('n', substr($d, $off + 60, 2));
	my $p = $off + 62;
	my $ext = 0;
	if ($flags & 0x4000) {
		$ext = unpack('n', substr($d, $p, 2));
		$p += 2;
	}
	my $name;
	if ($ver == 4) {
		my ($strip, $c) = (0, 0);
		$c = ord(substr($d, $p++, 1));
		$strip = $c & 127;
		while ($c & 128) {
			$strip += 1;
			$c = ord(substr($d, $p++, 1));
			$strip = ($strip << 7) + ($c & 127);
		}
		my $nul = index($d, "\0", $p);
		$name = substr($prev, 0, length($prev) - $strip) . substr($d, $p, $nul - $p);
		$off = $nul + 1;
	} else {
		my $nul = index($d, "\0", $p);
		$name = substr($d, $p, $nul - $p);
		$off += (($p - $off) + length($name) + 8) & ~7;
	}
	$prev = $name;
	my $stat = $nostat ? '' : sprintf('%d.%d %d.%d %d %d ', @f[0 .. 5]);
	printf "%s%o %d %d %d %s %04x %04x %s\n", $stat, $f[6], $f[7], $f[8],
		$f[9], $id, $flags, $ext, $name;
}
while ($off + 8 <= length($d) - 20) {
	my ($name, $len) = unpack('a4 N', substr($d, $off, 8));
	my $data = substr($d, $off + 8, $len);
	if ($name eq 'FSMN' && unpack('N', $data) == 2) {
		# the token apart, so that a test can leave it out
		my $nul = index($data, "\0", 4);
		printf "FSMN 2 token %s bitmap %s\n", substr($data, 4, $nul - 4),
			unpack('H*', substr($data, $nul + 1));
	} else {
		printf "%s %s\n", $name, unpack('H*', $data);
	}
	$off += 8 + $len;
}
