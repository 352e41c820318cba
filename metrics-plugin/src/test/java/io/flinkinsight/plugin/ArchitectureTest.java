package io.flinkinsight.plugin;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The packages' dependency direction, as docs/architecture.md draws it: Flink's entry points → the
 * runtime (the composition root) → the application (scrape, serve, api, proxy, hub, selfmetrics) →
 * the transport (http, which only carries bytes) and what is kept (store, index, exposition); the
 * root package (options, roles, the guard at Flink's boundary) is used by all and uses none. The
 * transport knows nothing of what it serves.
 */
class ArchitectureTest {

    private static final JavaClasses PLUGIN =
            new ClassFileImporter()
                    .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                    .importPackages("io.flinkinsight.plugin");

    @Test
    void packagesHaveNoCycles() {
        slices().matching("io.flinkinsight.plugin.(*)..").should().beFreeOfCycles().check(PLUGIN);
    }

    @Test
    void dependenciesPointOneWay() {
        layeredArchitecture()
                .consideringOnlyDependenciesInLayers()
                .layer("entry points")
                .definedBy("..plugin.metrics..", "..plugin.traces..", "..plugin.events..")
                .layer("runtime")
                .definedBy("..plugin.runtime..")
                .layer("application")
                .definedBy(
                        "..plugin.scrape..",
                        "..plugin.serve..",
                        "..plugin.api..",
                        "..plugin.proxy..",
                        "..plugin.hub..",
                        "..plugin.durable..",
                        "..plugin.selfmetrics..")
                .layer("transport")
                .definedBy("..plugin.http..")
                .layer("kept")
                .definedBy("..plugin.store..", "..plugin.index..", "..plugin.exposition..")
                .whereLayer("entry points")
                .mayNotBeAccessedByAnyLayer()
                .whereLayer("runtime")
                .mayOnlyBeAccessedByLayers("entry points")
                .whereLayer("application")
                .mayOnlyBeAccessedByLayers("runtime", "application")
                .whereLayer("transport")
                .mayOnlyBeAccessedByLayers("runtime", "application")
                .whereLayer("kept")
                .mayOnlyBeAccessedByLayers("runtime", "application", "kept")
                .check(PLUGIN);
    }

    @Test
    void theServerCoreKnowsNothingOfWhatItServes() {
        noClasses()
                .that()
                .resideInAPackage("..plugin.http..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "..plugin.scrape..",
                        "..plugin.serve..",
                        "..plugin.proxy..",
                        "..plugin.api..",
                        "..plugin.hub..",
                        "..plugin.durable..",
                        "..plugin.selfmetrics..",
                        "..plugin.store..",
                        "..plugin.index..",
                        "..plugin.exposition..")
                .check(PLUGIN);
    }
}
