package org.weft.launcher.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code --site} and {@code --site-launcher} into sites: contiguous ranks, launcher choice, clear refusals. */
class SiteLayoutTest {
    private static final Path MPIRUN = Path.of("/usr/bin/mpirun");

    @Test
    void ranksAreContiguousPerSiteInTheOrderGiven() {
        List<Site> sites = SiteLayout.parse(List.of("b:3", "a:2:localhost", "c:1"), List.of("c=weft"), MPIRUN);
        assertEquals(List.of("b", "a", "c"), sites.stream().map(Site::name).toList());
        assertEquals(List.of(0, 3, 5), sites.stream().map(Site::firstRank).toList());
        assertEquals(List.of("localhost"), sites.get(1).hosts());
        assertTrue(sites.get(0).isNative() && sites.get(1).isNative(), "auto takes the mpirun on the PATH");
        assertNull(sites.get(2).mpirun(), "c=weft");
        assertTrue(sites.get(0).contains(2) && !sites.get(0).contains(3));
    }

    @Test
    void withoutMpirunAutoSitesAreStartedByWeftAndForcedOnesAreRefused() {
        assertNull(SiteLayout.parse(List.of("a:2"), List.of(), null).getFirst().mpirun());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SiteLayout.parse(List.of("a:2"), List.of("a=mpirun"), null));
        assertTrue(e.getMessage().contains("no mpirun on the PATH"), e.getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "a             |          | expected NAME:NP",
            "a:2:x:y       |          | expected NAME:NP",
            "a:x           |          | NP must be a whole number",
            "a:0           |          | NP must be a whole number",
            ":2            |          | a site name is",
            "a b:2         |          | a site name is",
            "a:1:          |          | an empty host name",
            "a:1:no.such.host.invalid | | is not this host",
            "a:1           | b=weft   | there is no --site b",
            "a:1           | a=fast   | unknown site launcher 'fast'",
            "a:1           | a        | expected NAME=auto|mpirun|weft"})
    void badSyntaxIsAClearError(String site, String launcher, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SiteLayout.parse(List.of(site), launcher == null ? List.of() : List.of(launcher), MPIRUN));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    @Test
    void aSiteGivenTwiceIsAnError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SiteLayout.parse(List.of("a:1", "a:2"), List.of(), MPIRUN));
        assertTrue(e.getMessage().contains("site a is given twice"), e.getMessage());
    }

    @Test
    void aHostfileWithSiteLabelsGivesTheSitesInOrderOfFirstAppearance() {
        assertEquals(List.of("b:3:localhost,127.0.0.1", "a:1:localhost"), SiteLayout.fromHostfile(List.of(
                "# two sites on this machine", "localhost slots=2 site=b", "", "localhost site=a",
                "127.0.0.1 site=b slots=1  # more of b")));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SiteLayout.fromHostfile(List.of("localhost slots=2")));
        assertTrue(e.getMessage().contains("hostfile line 1: no site=NAME"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> SiteLayout.fromHostfile(List.of("localhost slots=0 site=a")));
        assertTrue(e.getMessage().contains("hostfile line 1: slots must be a whole number of at least 1"), e.getMessage());
    }
}
