package org.weft.launcher.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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
    void aSiteLauncherGivenByPathIsThatSitesMpirun(@TempDir Path dir) throws IOException {
        Path mpich = Files.createFile(dir.resolve("mpirun.mpich"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwxr-xr-x")));
        List<Site> sites = SiteLayout.parse(List.of("a:1", "b:2"), List.of("b=" + mpich), MPIRUN);
        assertEquals(List.of(MPIRUN, mpich), sites.stream().map(Site::mpirun).toList());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SiteLayout.parse(List.of("a:1"), List.of("a=" + dir.resolve("none")), MPIRUN));
        assertTrue(e.getMessage().contains("is not an executable mpirun"), e.getMessage());
    }

    @Test
    void theFlavourOfAnMpirunIsToldByItsVersion() {
        assertEquals(MpirunFlavour.HYDRA, MpirunFlavour.fromVersion("HYDRA build details:\n    Version: 4.0.2\n"));
        assertEquals(MpirunFlavour.OPEN_MPI, MpirunFlavour.fromVersion("mpirun (Open MPI) 4.1.4\n"));
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
    void aHostfileWithSiteLabelsGivesTheSitesInOrderOfFirstAppearanceAHostOncePerSlot() {
        Hostfile file = Hostfile.parse(List.of("# two sites", "node1 slots=2 site=b", "", "node2 site=a",
                "node3 site=b slots=1  # more of b"));
        assertTrue(file.hasSites());
        assertEquals(List.of("b:3:node1,node1,node3", "a:1:node2"), file.siteOptions());
    }

    @Test
    void aHostfileWithoutSiteLabelsGivesTheJobsSlots() {
        Hostfile file = Hostfile.parse(List.of("node1 slots=2", "node2"));
        assertFalse(file.hasSites());
        assertEquals(List.of("node1", "node1", "node2"), file.slots());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "node1 slots=0 site=a | hostfile line 1: slots must be a whole number of at least 1",
            "node1 slots=x        | hostfile line 1: slots must be a whole number of at least 1",
            "node1 site=a;node2   | hostfile line 2: either every line names its site"})
    void aBadHostfileIsAClearError(String lines, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Hostfile.parse(List.of(lines.split(";"))));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }
}
