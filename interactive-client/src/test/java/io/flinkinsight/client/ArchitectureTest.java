package io.flinkinsight.client;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The packages' dependency direction, as docs/architecture.md draws it: the entry points Flink
 * loads and the composition root (the root package, with this jar's Flink line) → the mechanisms
 * (admission, collect, pool, metrics, transport, in that order) → the foundation (config: options
 * and settings; flink: the version seam FlinkApi and the boundary), which uses none of the others.
 */
class ArchitectureTest {

    private static final JavaClasses CLIENT =
            new ClassFileImporter()
                    .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                    .importPackages("io.flinkinsight.client");

    @Test
    void packagesHaveNoCycles() {
        slices().matching("io.flinkinsight.client.(*)..").should().beFreeOfCycles().check(CLIENT);
    }

    @Test
    void dependenciesPointOneWay() {
        layeredArchitecture()
                .consideringOnlyDependenciesInLayers()
                .layer("entry points")
                .definedBy("io.flinkinsight.client", "..client.flink1..", "..client.flink2..")
                .layer("admission")
                .definedBy("..client.admission..")
                .layer("collect")
                .definedBy("..client.collect..")
                .layer("pool")
                .definedBy("..client.pool..")
                .layer("metrics")
                .definedBy("..client.metrics..")
                .layer("transport")
                .definedBy("..client.transport..")
                .layer("foundation")
                .definedBy("..client.config..", "..client.flink")
                .whereLayer("entry points")
                .mayNotBeAccessedByAnyLayer()
                .whereLayer("admission")
                .mayOnlyBeAccessedByLayers("entry points", "collect")
                .whereLayer("collect")
                .mayOnlyBeAccessedByLayers("entry points")
                .whereLayer("pool")
                .mayOnlyBeAccessedByLayers("entry points", "collect", "admission")
                .whereLayer("metrics")
                .mayOnlyBeAccessedByLayers("entry points", "collect", "pool")
                .whereLayer("transport")
                .mayOnlyBeAccessedByLayers("entry points", "collect", "pool", "metrics")
                .check(CLIENT);
    }
}
