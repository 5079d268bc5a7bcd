package org.examsuite.nativeimage;

import java.lang.annotation.Annotation;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.function.Function;

/**
 * The image options of the {@code native-image} command line ({@code --features=...}, {@code -O2},
 * {@code --gc=serial}, ...), read from the builder's own {@code @APIOption} annotations on its
 * option fields, so the table always matches the builder jars in use (no copy to regenerate after
 * an update). GraalVM's driver builds the same table at its own build time.
 */
final class ApiOptions {

    private static final char WHITESPACE = ' ';
    private static final char NO_SEPARATOR = 0;

    /** One spelling of one image option, and the builder option it stands for. */
    record Api(String spelling, String group, String builderName, String prefix, boolean isBoolean, boolean negated,
               char[] separators, List<String> defaultValue, List<String> fixedValue, Function<Object, Object> transformer) {

        boolean takesWhitespaceValue() {
            for (char c : separators) {
                if (c == WHITESPACE) {
                    return true;
                }
            }
            return false;
        }
    }

    /** A translated argument: the builder's option, and how many command-line arguments it consumed. */
    record Translation(String builderArgument, int consumed) {
    }

    private final List<Api> apis;
    private final List<Group> groups;

    record Group(String name, String multiValueOption) {
    }

    ApiOptions(List<Api> apis, List<Group> groups) {
        this.apis = apis.stream().sorted(Comparator.comparingInt((Api a) -> a.spelling().length()).reversed()).toList();
        this.groups = groups;
    }

    List<Api> all() {
        return apis;
    }

    /** The builder's option for {@code args[index]}, or empty when it is no image option. */
    Optional<Translation> translate(List<String> args, int index) throws NativeImage.UsageException {
        String arg = args.get(index);
        for (Group group : groups) {
            String prefix = "--" + group.name() + "=";
            if (arg.startsWith(prefix)) {
                String member = arg.substring(prefix.length());
                for (Api api : apis) {
                    if (group.name().equals(api.group()) && api.spelling().equals(member)) {
                        return Optional.of(new Translation(build(api, null), 1));
                    }
                }
                if (group.multiValueOption() != null) {
                    return Optional.of(new Translation("-H:" + group.multiValueOption() + "=" + member, 1));
                }
                throw new NativeImage.UsageException("unknown value for --" + group.name() + ": " + member);
            }
        }
        for (Api api : apis) {
            if (api.group() != null) {
                continue;
            }
            String name = api.spelling();
            if (arg.equals(name)) {
                if (api.fixedValue().isEmpty() && api.defaultValue().isEmpty() && !api.isBoolean() && api.takesWhitespaceValue()) {
                    if (index + 1 >= args.size()) {
                        throw new NativeImage.UsageException(name + " needs a value");
                    }
                    return Optional.of(new Translation(build(api, args.get(index + 1)), 2));
                }
                return Optional.of(new Translation(build(api, null), 1));
            }
            for (char separator : api.separators()) {
                if (separator == WHITESPACE) {
                    continue;
                }
                String head = separator == NO_SEPARATOR ? name : name + separator;
                if (arg.startsWith(head) && arg.length() > head.length() - (separator == NO_SEPARATOR ? 0 : 1)) {
                    if (separator == NO_SEPARATOR && arg.length() == name.length()) {
                        continue;
                    }
                    return Optional.of(new Translation(build(api, arg.substring(head.length())), 1));
                }
            }
        }
        return Optional.empty();
    }

    private static String build(Api api, String given) throws NativeImage.UsageException {
        String value = given;
        if (!api.fixedValue().isEmpty()) {
            if (given != null) {
                throw new NativeImage.UsageException(api.spelling() + " takes no value");
            }
            value = String.join(",", api.fixedValue());
        } else if (value == null && !api.defaultValue().isEmpty()) {
            value = String.join(",", api.defaultValue());
        }
        if (value != null && api.transformer() != null) {
            value = String.valueOf(api.transformer().apply(value));
        }
        if (api.isBoolean()) {
            boolean on = value == null || Boolean.parseBoolean(value);
            return api.prefix() + ((on != api.negated()) ? "+" : "-") + api.builderName();
        }
        if (value == null) {
            throw new NativeImage.UsageException(api.spelling() + " needs a value");
        }
        return api.prefix() + api.builderName() + "=" + value;
    }

    /** Reads the table from the builder modules in this JVM's boot layer (bin/native-image puts them there). */
    @SuppressWarnings("unchecked")
    static ApiOptions load() throws ReflectiveOperationException {
        openBuilderModules();
        Class<?> descriptorsType = Class.forName("jdk.graal.compiler.options.OptionDescriptors");
        Class<? extends Annotation> apiType = (Class<? extends Annotation>) Class.forName("com.oracle.svm.core.option.APIOption");
        Method getName = Class.forName("jdk.graal.compiler.options.OptionDescriptor").getMethod("getName");
        Method getType = Class.forName("jdk.graal.compiler.options.OptionDescriptor").getMethod("getOptionValueType");
        Method getDeclaring = Class.forName("jdk.graal.compiler.options.OptionDescriptor").getMethod("getDeclaringClass");
        Method getField = Class.forName("jdk.graal.compiler.options.OptionDescriptor").getMethod("getFieldName");
        Method getKey = Class.forName("jdk.graal.compiler.options.OptionDescriptor").getMethod("getOptionKey");
        List<Api> apis = new ArrayList<>();
        List<Group> groups = new ArrayList<>();
        for (Object descriptors : ServiceLoader.load(ModuleLayer.boot(), descriptorsType)) {
            for (Object descriptor : (Iterable<?>) descriptors) {
                Field field;
                try {
                    field = ((Class<?>) getDeclaring.invoke(descriptor)).getDeclaredField((String) getField.invoke(descriptor));
                } catch (NoSuchFieldException e) {
                    continue;
                }
                Annotation[] annotations = field.getAnnotationsByType(apiType);
                if (annotations.length == 0) {
                    continue;
                }
                String builderName = (String) getName.invoke(descriptor);
                boolean isBoolean = getType.invoke(descriptor) == Boolean.class;
                String prefix = getKey.invoke(descriptor).getClass().getName().contains("RuntimeOptionKey") ? "-R:" : "-H:";
                for (Annotation a : annotations) {
                    Class<?> groupType = (Class<?>) value(a, "group");
                    String group = null;
                    if (!groupType.getSimpleName().equals("NullGroup")) {
                        Object g = instantiate(groupType);
                        group = (String) groupType.getMethod("name").invoke(g);
                        String multi = null;
                        try {
                            Object key = groupType.getMethod("multiValueOption").invoke(g);
                            multi = key == null ? null : (String) key.getClass().getMethod("getName").invoke(key);
                        } catch (ReflectiveOperationException | RuntimeException e) {
                            multi = null;
                        }
                        String name = group;
                        if (groups.stream().noneMatch(x -> x.name().equals(name))) {
                            groups.add(new Group(group, multi));
                        }
                    }
                    Class<?>[] transformers = (Class<?>[]) value(a, "valueTransformer");
                    Function<Object, Object> transformer = null;
                    if (transformers.length > 0 && !transformers[0].getSimpleName().equals("DefaultTransformer")) {
                        transformer = (Function<Object, Object>) instantiate(transformers[0]);
                    }
                    boolean negated = String.valueOf(value(a, "kind")).equals("Negated");
                    for (String spelling : (String[]) value(a, "name")) {
                        String cli = group != null ? spelling : (spelling.startsWith("-") ? spelling : "--" + spelling);
                        apis.add(new Api(cli, group, builderName, prefix, isBoolean, negated, (char[]) value(a, "valueSeparator"),
                                List.of((String[]) value(a, "defaultValue")), List.of((String[]) value(a, "fixedValue")), transformer));
                    }
                }
            }
        }
        if (apis.isEmpty()) {
            throw new IllegalStateException("no @APIOption found: are the builder modules on the module path?");
        }
        return new ApiOptions(apis, groups);
    }

    /**
     * The option classes, annotations and transformers live in packages the builder does not
     * export; bin/native-image exports jdk.internal.module to this launcher so it can open them.
     */
    private static void openBuilderModules() throws ReflectiveOperationException {
        Class<?> modules = Class.forName("jdk.internal.module.Modules");
        Method openToUnnamed = modules.getMethod("addOpensToAllUnnamed", Module.class, String.class);
        Method export = modules.getMethod("addExports", Module.class, String.class, Module.class);
        List<Module> builder = ModuleLayer.boot().modules().stream()
                .filter(m -> m.getName().startsWith("org.graalvm.") || m.getName().startsWith("jdk.graal.")).toList();
        for (Module module : builder) {
            for (String pkg : module.getPackages()) {
                openToUnnamed.invoke(null, module, pkg);
            }
        }
        // Option classes' initialisers touch JVMCI and JDK internals, as in the builder JVM (BuilderCommand.jdkExports).
        for (Module jdk : ModuleLayer.boot().modules()) {
            if (BuilderCommand.JDK_MODULES.contains(jdk.getName())) {
                for (String pkg : jdk.getPackages()) {
                    for (Module target : builder) {
                        export.invoke(null, jdk, pkg, target);
                    }
                }
            }
        }
    }

    private static Object value(Annotation a, String member) throws ReflectiveOperationException {
        return a.annotationType().getMethod(member).invoke(a);
    }

    private static Object instantiate(Class<?> type) throws ReflectiveOperationException {
        Constructor<?> constructor = type.getDeclaredConstructor();
        constructor.setAccessible(true);
        return constructor.newInstance();
    }
}
