package io.flinkinsight.plugin;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The packages' dependency direction, as README's architecture section draws it: Flink's entry points → the runtime
 * (the composition root) → what serves (http, proxy, api, hub) → what is kept (store, index, exposition); the root
 * package (options, roles, the guard at Flink's boundary) is used by all and uses none.
 */
class ArchitectureTest {

    private static final JavaClasses PLUGIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.flinkinsight.plugin");

    @Test
    void packagesHaveNoCycles() {
        slices().matching("io.flinkinsight.plugin.(*)..").should().beFreeOfCycles().check(PLUGIN);
    }

    @Test
    void dependenciesPointOneWay() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("entry points").definedBy("..plugin.metrics..", "..plugin.traces..", "..plugin.events..")
                .layer("runtime").definedBy("..plugin.runtime..")
                .layer("serving").definedBy(
                        "..plugin.http..", "..plugin.proxy..", "..plugin.api..", "..plugin.hub..", "..plugin.selfmetrics..")
                .layer("kept").definedBy("..plugin.store..", "..plugin.index..", "..plugin.exposition..")
                .whereLayer("entry points").mayNotBeAccessedByAnyLayer()
                .whereLayer("runtime").mayOnlyBeAccessedByLayers("entry points")
                .whereLayer("serving").mayOnlyBeAccessedByLayers("runtime", "serving")
                .whereLayer("kept").mayOnlyBeAccessedByLayers("runtime", "serving", "kept")
                .check(PLUGIN);
    }

    @Test
    void theServerCoreKnowsNothingOfWhatItServes() {
        noClasses()
                .that().resideInAPackage("..plugin.http..")
                .should().dependOnClassesThat()
                .resideInAnyPackage("..plugin.proxy..", "..plugin.api..", "..plugin.hub..", "..plugin.store..")
                .check(PLUGIN);
    }
}
