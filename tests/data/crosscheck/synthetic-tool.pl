#!/usr/bin/env perl
# A synthetic stand-in for the NIST tool, written for acescore's tests (no text of the
# NIST tool): the same kinds of hash traversals, whose order reaches the output.
use strict;
use warnings;

my ($list) = @ARGV;
my %data;
open (LIST, $list) or die "cannot open list '$list'";       # two-argument open, as the tool
while (my $file = <LIST>) {
  $file =~ s/\n//;
  open (FILE, $file) or die "cannot open '$file'";
  while (my $line = <FILE>) {
    next if $line =~ /^#/;
    my ($table, $key, $value) = split " ", $line;
    $data{$table}{$key} = $value;
  }
  close FILE;
}
close LIST;

print "keys %data and values %data in a string are not traversals\n";   # nor: each %data
print "sum: ", sum_values ($data{sum}), "\n";
print "first: ", first_key ($data{names}), "\n";
print "pairs: ", each_pairs ($data{names}), "\n";
print "nested: ", nested ({a => $data{names}, b => $data{sum}}), "\n";
print "rows: ", rows ({map {$_ => 1} 0 .. 11}), "\n";
my @records = map { {ID => sprintf ("m%02d", $_)} } (7, 3, 11, 1, 9, 5, 12, 2, 8, 4, 10, 6);
print "by address: ", by_address (\@records), "\n";
print "symmetric: ", symmetric ({map {$_ => {"M$_" => 1}} ("Left", "Right", map {"Other-$_"} 1 .. 12)}), "\n";
print "untouched: ", untouched ($data{names}), "\n";
print "The scoring mode parameter set is \"synthetic\"\n";

sub sum_values {             # a floating-point sum in traversal order
  my ($h) = @_;
  my $sum = 0;
  foreach my $v (values %$h) {
    $sum += $v;
  }
  return $sum;
}

sub first_key {
  my ($h) = @_;
  my @k = keys %$h;
  return $k[0];
}

sub each_pairs {
  my ($h) = @_;
  my $out = "";
  while ((my $k, my $v) = each %$h) {       # the older scripts' form of the loop head
    $out .= "$k=$v;";
  }
  return $out;
}

sub nested {
  my ($tables) = @_;
  my $out = "";
  foreach my $table (keys %$tables) {
    foreach my $key (keys %{$tables->{$table}}) {
      $out .= "$table/$key ";
    }
  }
  return $out;
}

sub rows {                   # list positions: index order, not string order
  my ($t) = @_;
  return join ",", keys %$t;
}

sub by_address {             # keyed by the address of a record: order by the record's ID
  my ($records) = @_;
  my %h;
  $h{$_} = {MENTION => $_} foreach @$records;
  return join ",", map { $_->{MENTION}{ID} } values %h;
}

sub symmetric {              # merges two keys into a third while it iterates over them
  my ($table) = @_;
  while (my ($name, $members) = each %$table) {
    if ($name eq "Left" or $name eq "Right") {
      $table->{Both}{$_} = 1 for keys %$members;
      delete $table->{$name};
    }
  }
  return join ",", grep {/^(Both|Left|Right)$/} sort keys %$table;
}

sub untouched {              # a count and an already sorted traversal stay as they are
  my ($h) = @_;
  my $n = keys %$h;
  return $n . ":" . join (",", sort keys %$h);
}
