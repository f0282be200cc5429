package org.weft.tests.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.weft.tests.harness.Scripts;

/**
 * What Maven Central asks of every published POM (name, description, url, licence, developers, scm), a BOM that
 * lists exactly Weft's libraries, and a fixed build timestamp for reproducible archives. The sources and javadoc
 * jars come from the {@code release} profile ({@code ./mvnw -Prelease package}), too slow to run here.
 */
class MavenCentralMetadataTest {
    private static final List<String> LIBRARIES = List.of("adi-device", "mpi-api", "multimethod-device", "launcher");
    private static final Path ROOT = Scripts.find("mvnw").getParent();

    @Test
    void theParentAndTheBomCarryWhatCentralAsks() throws Exception {
        for (String pom : List.of("pom.xml", "bom/pom.xml")) {
            Element project = parse(ROOT.resolve(pom)).getDocumentElement();
            for (String element : List.of("name", "description", "url", "licenses", "developers", "scm")) {
                assertFalse(text(project, element).isBlank(), pom + " has <" + element + ">");
            }
            assertFalse(text(project, "project.build.outputTimestamp").isBlank(), pom + " is reproducible");
        }
    }

    @Test
    void everyLibraryHasANameAndADescriptionAndTheBomListsThemAll() throws Exception {
        for (String module : LIBRARIES) {
            Element project = parse(ROOT.resolve(module).resolve("pom.xml")).getDocumentElement();
            assertFalse(text(project, "name").isBlank(), module);
            assertFalse(text(project, "description").isBlank(), module);
        }
        Element bom = parse(ROOT.resolve("bom/pom.xml")).getDocumentElement();
        assertEquals("org.weft:weft-bom", text(bom, "groupId") + ":" + text(bom, "artifactId"));
        assertEquals(0, bom.getElementsByTagName("parent").getLength(),
                "importing the BOM brings Weft's versions only");
        List<String> managed = new ArrayList<>();
        NodeList artifacts = ((Element) bom.getElementsByTagName("dependencyManagement").item(0))
                .getElementsByTagName("artifactId");
        for (int i = 0; i < artifacts.getLength(); i++) {
            managed.add(artifacts.item(i).getTextContent());
        }
        assertEquals(LIBRARIES, managed);
    }

    private static Document parse(Path pom) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
    }

    /** The text of the first {@code name} element under {@code project}, or "" when there is none. */
    private static String text(Element project, String name) {
        NodeList nodes = project.getElementsByTagName(name);
        return nodes.getLength() == 0 ? "" : nodes.item(0).getTextContent().trim();
    }
}
