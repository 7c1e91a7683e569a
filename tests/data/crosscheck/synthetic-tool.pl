#!/usr/bin/env perl
# A synthetic stand-in for the NIST tool, written for acescore's tests (no text of the
# NIST tool): the same kinds of hash traversals, whose order reaches the output.
use strict;

my ($list) = @ARGV;
my %data;
open (LIST, $list) or die "cannot open list '$list'";       # two-argument open, as the tool
while (my $file = <LIST>) {
  $file =~ s/\n//;
  open (FILE, $file) or die "cannot open '$file'";
  while (defined ($_ = <FILE>)) {
    next if /^#/;
    my ($table, $key, $value) = split;
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
print "symmetric: ", symmetric ({map {$_ => {"E$_" => 1}} ("Arg-1", "Arg-2", map {"Time-$_"} 1 .. 12)}), "\n";
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
  my $db = shift;
  my $out = "";
  foreach my $table (keys %$db) {
    foreach my $key (keys %{$db->{$table}}) {
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

sub symmetric {              # renames roles while it iterates over them
  my $args = shift;
  while (my ($role, $ids) = each %$args) {
    next if $role !~ /^Arg-[12]$/;
    for my $id (keys %$ids) {
      $args->{Arg}{$id} = 1;
    }
    delete $args->{$role};
  }
  return join ",", grep {/^Arg/} sort keys %$args;
}

sub untouched {              # a count and an already sorted traversal stay as they are
  my ($h) = @_;
  my $n = keys %$h;
  return $n . ":" . join (",", sort keys %$h);
}
